/// A type that supplies the exact text a dump prints for it.
///
/// Use this for values whose structure is noise, like identifiers or tokens:
///
/// ```swift
/// struct UserID: CustomDumpStringConvertible {
///   var rawValue: Int
///   var customDumpDescription: String { "UserID(\(rawValue))" }
/// }
/// String(customDumping: UserID(rawValue: 7))  // UserID(7)
/// ```
///
/// The description is printed verbatim, so it should be deterministic.
public protocol CustomDumpStringConvertible {
  /// The text printed in place of the value.
  var customDumpDescription: String { get }
}

/// A type that supplies its own mirror to dumps, for example to hide or rename fields.
///
/// ```swift
/// struct Session: CustomDumpReflectable {
///   var user: String
///   var token: String
///   var customDumpMirror: Mirror {
///     Mirror(self, children: ["user": user], displayStyle: .struct)
///   }
/// }
/// String(customDumping: Session(user: "blob", token: "secret"))
/// // Session(
/// //   user: "blob"
/// // )
/// ```
public protocol CustomDumpReflectable {
  /// The mirror a dump walks instead of the value's own.
  var customDumpMirror: Mirror { get }
}

/// A type that is dumped as another value.
///
/// ```swift
/// struct Box: CustomDumpRepresentable {
///   var wrapped: Int
///   var customDumpValue: Any { wrapped }
/// }
/// String(customDumping: Box(wrapped: 42))  // 42
/// ```
///
/// > Note: A value of the same type as the conforming value is dumped by its structure,
/// > so returning `self` does not recurse forever.
public protocol CustomDumpRepresentable {
  /// The value dumped in place of this one.
  var customDumpValue: Any { get }
}
