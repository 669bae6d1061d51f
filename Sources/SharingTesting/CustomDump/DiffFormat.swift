/// The markers a ``diff(_:_:format:)`` puts before each line.
///
/// ```swift
/// diff(1, 2)
/// // - 1
/// // + 2
/// ```
public struct DiffFormat: Hashable, Sendable {
  /// The marker of a line only the first (expected) value has.
  public var first: String
  /// The marker of a line only the second (actual) value has.
  public var second: String
  /// The marker of a line both values share.
  public var both: String

  /// Creates a format from its three markers.
  ///
  /// - Parameters:
  ///   - first: The marker of a line only the first (expected) value has.
  ///   - second: The marker of a line only the second (actual) value has.
  ///   - both: The marker of a line both values share.
  public init(first: String, second: String, both: String) {
    self.first = first
    self.second = second
    self.both = both
  }

  /// ASCII `-`, `+` and a space, for monospaced text such as a console, as swift-custom-dump's
  /// default format.
  public static let `default` = DiffFormat(first: "-", second: "+", both: " ")

  /// `−` (U+2212 MINUS SIGN), `+` and a figure space (U+2007), which have the same width in
  /// most proportional fonts, as swift-custom-dump's proportional format.
  public static let proportional = DiffFormat(first: "\u{2212}", second: "+", both: "\u{2007}")

  /// ASCII `-`, `+` and a space: the same as ``default``.
  public static let plain = DiffFormat.default

  /// The markers of the diffs in failure messages: `−` (U+2212 MINUS SIGN), `+` and a space.
  static let failureMessage = DiffFormat(first: "\u{2212}", second: "+", both: " ")
}
