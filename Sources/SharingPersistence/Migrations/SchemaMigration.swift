public import Foundation

/// How to read a value stored at an older schema version: one step of a chain of
/// migrations.
///
/// A key that declares a version lists a migration from each older version it can still
/// read. Each one reads its version, from the stored bytes or as an old `Decodable` type,
/// and returns either the key's value, which ends the chain, or the value at the next
/// version, which the migration from that version reads in turn:
///
/// ```swift
/// @Shared(
///   .fileStorage(
///     .todos,
///     version: 3,
///     migrations: [
///       // Version 1 was a list of titles.
///       .from(1, decoding: [String].self) { titles in
///         titles.map { TodoV2(title: $0, isDone: false) }
///       },
///       // Version 2 had no due dates.
///       .from(2, decoding: [TodoV2].self) { todos in
///         todos.map { Todo(title: $0.title, isDone: $0.isDone, dueDate: nil) }
///       },
///     ]
///   )
/// )
/// var todos: [Todo] = []
/// ```
///
/// A value stored at version 1 goes through both migrations; one stored at version 2 through
/// the second only. A migration may also skip ahead by returning the key's value directly.
/// The migrated value is written back at once, in the current version, so each value is
/// migrated once.
///
/// A step that returns neither the key's value nor `Data` hands its JSON encoding
/// (`JSONEncoder()`'s) to the next step; one that returns `Data` hands those bytes.
///
/// See <doc:Migrations> for how versions are stored.
public struct SchemaMigration<Value>: Sendable {
  /// The version this migration reads.
  public let version: Int
  let migrate: @Sendable (Data) throws -> Step

  /// What a migration produced: the key's value, or the bytes of the next version.
  enum Step {
    case value(Value)
    case data(Data)
  }

  private init(version: Int, migrate: @escaping @Sendable (Data) throws -> Step) {
    self.version = version
    self.migrate = migrate
  }

  /// A migration that reads a value stored at `version` as an old `Decodable` type, and
  /// makes the key's value from it.
  ///
  /// ```swift
  /// .from(1, decoding: SettingsV1.self) { old in
  ///   Settings(theme: old.isDark ? .dark : .light)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - version: The version this migration reads.
  ///   - oldType: The type the value had at that version.
  ///   - decoder: The decoder that reads the stored JSON.
  ///   - migrate: Makes the key's value from the old one.
  /// - Returns: A migration.
  public static func from<Old: Decodable & Sendable>(
    _ version: Int,
    decoding oldType: Old.Type,
    decoder: JSONDecoder = JSONDecoder(),
    _ migrate: @escaping @Sendable (Old) throws -> Value
  ) -> Self {
    from(version) { try migrate(try decoder.decode(Old.self, from: $0)) }
  }

  /// A migration that reads a value stored at `version` as an old `Decodable` type, and
  /// makes the value of the next version from it, which the migration from that version
  /// reads.
  ///
  /// ```swift
  /// .from(1, decoding: [String].self) { titles in
  ///   titles.map { TodoV2(title: $0, isDone: false) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - version: The version this migration reads.
  ///   - oldType: The type the value had at that version.
  ///   - decoder: The decoder that reads the stored JSON.
  ///   - migrate: Makes the value of the next version from the old one.
  /// - Returns: A migration.
  @_disfavoredOverload
  public static func from<Old: Decodable & Sendable, Next: Encodable & Sendable>(
    _ version: Int,
    decoding oldType: Old.Type,
    decoder: JSONDecoder = JSONDecoder(),
    _ migrate: @escaping @Sendable (Old) throws -> Next
  ) -> Self {
    from(version) { try migrate(try decoder.decode(Old.self, from: $0)) }
  }

  /// A migration that reads the bytes of a value stored at `version`, and makes the key's
  /// value from them.
  ///
  /// ```swift
  /// .from(1) { data in
  ///   Notes(text: String(decoding: data, as: UTF8.self))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - version: The version this migration reads.
  ///   - migrate: Makes the key's value from the stored bytes.
  /// - Returns: A migration.
  public static func from(
    _ version: Int,
    _ migrate: @escaping @Sendable (Data) throws -> Value
  ) -> Self {
    Self(version: version) { data in .value(try migrate(data)) }
  }

  /// A migration that reads the bytes of a value stored at `version`, and makes the value of
  /// the next version from them: `Data` to hand over bytes as they are, or an `Encodable`
  /// value to hand over its JSON.
  ///
  /// ```swift
  /// // Version 2 called "isDone" "done".
  /// .from(2) { data in
  ///   let json = String(decoding: data, as: UTF8.self)
  ///   return Data(json.replacingOccurrences(of: #""done":"#, with: #""isDone":"#).utf8)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - version: The version this migration reads.
  ///   - migrate: Makes the value of the next version from the stored bytes.
  /// - Returns: A migration.
  @_disfavoredOverload
  public static func from<Next: Encodable & Sendable>(
    _ version: Int,
    _ migrate: @escaping @Sendable (Data) throws -> Next
  ) -> Self {
    Self(version: version) { data in try step(try migrate(data)) }
  }

  private static func step<Next: Encodable>(_ next: Next) throws -> Step {
    if Next.self == Value.self { return .value(next as! Value) }
    if Next.self == Data.self { return .data(next as! Data) }
    return .data(try JSONEncoder().encode(next))
  }
}
