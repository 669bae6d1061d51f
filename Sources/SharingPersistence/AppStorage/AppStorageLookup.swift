import Foundation

/// How an ``AppStorageKey`` turns its value into a property list value and back.
protocol AppStorageLookup<Value>: Sendable {
  associatedtype Value: Sendable

  /// The value for a stored object, or `nil` if the object has the wrong type.
  func decode(_ object: Any) -> Value?

  /// The object to store for a value, or `nil` to remove the key.
  func encode(_ value: Value) throws -> Any?

  /// The value for a stored object, and whether it was migrated from an older version and
  /// needs writing back; `nil` if the object has the wrong type.
  ///
  /// - Throws: Why an object of the right type cannot be read.
  func read(_ object: Any) throws -> (value: Value, isMigrated: Bool)?
}

extension AppStorageLookup {
  func read(_ object: Any) -> (value: Value, isMigrated: Bool)? {
    decode(object).map { ($0, false) }
  }
}

/// Values user defaults store natively: `Bool`, `Int`, `Double`, `String`, `Data`, `Date`.
struct CastLookup<Value: Sendable>: AppStorageLookup {
  func decode(_ object: Any) -> Value? {
    if let value = object as? Value { return value }
    // NB: Foundation on Linux reads some integers back from the property list as 'Int64'
    //     (Int.max, for one), which does not cast to 'Int'.
    if Value.self == Int.self, let integer = Self.integer(from: object) { return integer as? Value }
    // NB: A whole number stored for a 'Double' key (by 'set(3, forKey:)', say) is a double.
    if Value.self == Double.self, let integer = Self.integer(from: object) {
      return Double(integer) as? Value
    }
    return nil
  }

  /// The integer a stored object holds, if it is an integer that fits in an `Int`.
  private static func integer(from object: Any) -> Int? {
    guard let integer = object as? any BinaryInteger else { return nil }
    return Int(exactly: integer)
  }

  func encode(_ value: Value) -> Any? { value }
}

/// Optional values: a missing key is the default value, and `nil` removes the key.
struct OptionalLookup<Base: AppStorageLookup>: AppStorageLookup {
  let base: Base

  func decode(_ object: Any) -> Base.Value?? {
    base.decode(object).map { .some($0) }
  }

  func encode(_ value: Base.Value?) throws -> Any? {
    try value.flatMap { try base.encode($0) }
  }

  func read(_ object: Any) throws -> (value: Base.Value?, isMigrated: Bool)? {
    try base.read(object).map { (.some($0.value), $0.isMigrated) }
  }
}

/// `RawRepresentable` values, stored as their raw value.
struct RawRepresentableLookup<Value: RawRepresentable & Sendable, Base: AppStorageLookup>:
  AppStorageLookup
where Base.Value == Value.RawValue {
  let base: Base

  func decode(_ object: Any) -> Value? {
    base.decode(object).flatMap(Value.init(rawValue:))
  }

  func encode(_ value: Value) throws -> Any? {
    try base.encode(value.rawValue)
  }
}

/// `Codable` values, stored as JSON data.
struct CodableLookup<Value: Codable & Sendable>: AppStorageLookup {
  func decode(_ object: Any) -> Value? {
    (try? read(object))?.value
  }

  func encode(_ value: Value) throws -> Any? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(value)
  }

  /// - Throws: The decoding error for data that is not JSON of the value's type.
  func read(_ object: Any) throws -> (value: Value, isMigrated: Bool)? {
    guard let data = object as? Data else { return nil }
    return (try JSONDecoder().decode(Value.self, from: data), false)
  }
}

/// `Codable` values at a schema version, stored as JSON data: version 1 as plain JSON, later
/// versions in a ``SchemaEnvelope``.
struct VersionedCodableLookup<Value: Codable & Sendable>: AppStorageLookup {
  let key: String
  let format: StoredFormat<Value>

  init(key: String, version: Int, migrations: [SchemaMigration<Value>]) {
    self.key = key
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    self.format = .json(
      decoder: JSONDecoder(),
      encoder: encoder,
      version: version,
      migrations: migrations
    )
  }

  func decode(_ object: Any) -> Value? {
    (try? read(object))?.value
  }

  func encode(_ value: Value) throws -> Any? {
    try format.encode(value)
  }

  func read(_ object: Any) throws -> (value: Value, isMigrated: Bool)? {
    guard let data = object as? Data else { return nil }
    switch try format.decode(data, location: "the user defaults value \(String(reflecting: key))") {
    case .current(let value): return (value, false)
    case .migrated(let value): return (value, true)
    }
  }
}
