import Foundation

/// How an ``AppStorageKey`` turns its value into a property list value and back.
struct AppStorageLookup<Value: Sendable>: Sendable {
  /// The value for a stored object, and whether it was migrated from an older version and
  /// needs writing back; `nil` if the object has the wrong type.
  ///
  /// - Throws: Why an object of the right type cannot be read.
  let read: @Sendable (Any) throws -> (value: Value, isMigrated: Bool)?
  /// The object to store for a value, or `nil` to remove the key.
  let encode: @Sendable (Value) throws -> Any?
}

extension AppStorageLookup {
  /// Values user defaults store natively: `Bool`, `Int`, `Double`, `String`, `[String]`,
  /// `Data`, `Date`.
  static var native: Self {
    Self(read: { cast($0).map { ($0, false) } }, encode: { $0 })
  }

  /// `RawRepresentable` values, stored as their raw value, which user defaults store
  /// natively.
  static func rawValue<Raw: Sendable>() -> Self where Value: RawRepresentable<Raw> {
    Self(
      read: { AppStorageLookup<Raw>.cast($0).flatMap(Value.init(rawValue:)).map { ($0, false) } },
      encode: { $0.rawValue }
    )
  }

  /// Optional values: a missing key is the default value, and `nil` removes the key.
  static func optional<Wrapped>(_ base: AppStorageLookup<Wrapped>) -> Self
  where Value == Wrapped? {
    Self(
      read: { try base.read($0).map { (.some($0.value), $0.isMigrated) } },
      encode: { try $0.flatMap(base.encode) }
    )
  }

  /// The stored object as a value user defaults store natively, if it is one: an integer
  /// that fits in an `Int` is one for an `Int` or a `Double` key.
  private static func cast(_ object: Any) -> Value? {
    if let value = object as? Value { return value }
    // NB: Foundation on Linux reads some integers back from the property list as 'Int64'
    //     (Int.max, for one), which does not cast to 'Int'; and a whole number stored for a
    //     'Double' key (by 'set(3, forKey:)', say) is an integer.
    guard let integer = object as? any BinaryInteger, let exact = Int(exactly: integer) else {
      return nil
    }
    return exact as? Value ?? Double(exact) as? Value
  }
}

extension AppStorageLookup where Value: Codable {
  /// `Codable` values, stored as JSON data; at a schema version, if given: version 1 as plain
  /// JSON, later versions in a ``SchemaEnvelope``.
  ///
  /// Data that is not JSON of the value's type throws the decoding error, or for a key with
  /// a version a ``MigrationError``.
  static func json(
    key: String,
    version: Int? = nil,
    migrations: [SchemaMigration<Value>] = []
  ) -> Self {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let format = StoredFormat.json(
      decoder: JSONDecoder(),
      encoder: encoder,
      version: version,
      migrations: migrations
    )
    let location = "the user defaults value \(String(reflecting: key))"
    return Self(
      read: { object in
        guard let data = object as? Data else { return nil }
        return try format.decode(data, location: location)
      },
      encode: { try format.encode($0) }
    )
  }
}
