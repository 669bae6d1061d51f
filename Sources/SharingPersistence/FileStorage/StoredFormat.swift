import Foundation

/// How a key turns its value into stored bytes and back, at a schema version, migrating
/// values stored at older ones.
///
/// Without a version, bytes are the value's coding, as they always were. With one, version
/// 1 is stored the same way, and later versions in a ``SchemaEnvelope``; bytes that are not
/// an envelope are version 1.
struct StoredFormat<Value>: Sendable {
  /// The version the key reads and writes, or `nil` for a key without versions.
  let version: Int?
  /// Migrations by the version they read.
  let migrations: [Int: SchemaMigration<Value>]
  /// Whether the value's coding is JSON, kept readable in an envelope.
  let isJSON: Bool
  let decodeValue: @Sendable (Data) throws -> Value
  let encodeValue: @Sendable (Value) throws -> Data

  /// A format at `version` (`nil` for a key without versions), reading older versions
  /// through `migrations`.
  init(
    version: Int? = nil,
    migrations: [SchemaMigration<Value>] = [],
    isJSON: Bool,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    self.version = version.map { max($0, 1) }
    // The last migration listed for a version wins, as the last assignment would.
    self.migrations = Dictionary(migrations.map { ($0.version, $0) }) { $1 }
    self.isJSON = isJSON
    self.decodeValue = decode
    self.encodeValue = encode
  }

  /// The bytes to store for a value.
  func encode(_ value: Value) throws -> Data {
    let payload = try encodeValue(value)
    guard let version, version > 1 else { return payload }
    return SchemaEnvelope.wrap(payload, version: version, isJSON: isJSON)
  }

  /// The value stored in `data`, migrated if it is stored at an older version.
  ///
  /// - Parameter location: Where the bytes come from, for errors.
  /// - Returns: The value, and whether it was migrated from an older version (to be written
  ///   back).
  /// - Throws: The decoding error for a key without versions; otherwise a
  ///   ``MigrationError`` naming the version that could not be read.
  func decode(
    _ data: Data,
    location: @autoclosure () -> String
  ) throws -> (value: Value, isMigrated: Bool) {
    guard let current = version else { return (try decodeValue(data), false) }
    let (stored, payload) = SchemaEnvelope.unwrap(data) ?? (1, data)
    func failure(at version: Int, _ reason: MigrationError.Reason) -> MigrationError {
      MigrationError(
        location: location(),
        storedVersion: stored,
        currentVersion: current,
        failedVersion: version,
        reason: reason
      )
    }
    guard stored <= current else { throw failure(at: stored, .newerThanCurrent) }
    var bytes = payload
    var version = stored
    while version < current {
      guard let migration = migrations[version] else {
        throw failure(at: version, .missingMigration)
      }
      let step: SchemaMigration<Value>.Step
      do {
        step = try migration.migrate(bytes)
      } catch {
        throw failure(at: version, .migrationFailed(error))
      }
      switch step {
      case .value(let value):
        return (value, true)
      case .data(let next):
        bytes = next
        version += 1
      }
    }
    do {
      let value = try decodeValue(bytes)
      return (value, stored < current)
    } catch {
      throw failure(at: current, .decodingFailed(error))
    }
  }
}

extension StoredFormat where Value: Codable & Sendable {
  /// The JSON coding of a `Codable` value, at `version` if the key has one.
  static func json(
    decoder: JSONDecoder,
    encoder: JSONEncoder,
    version: Int? = nil,
    migrations: [SchemaMigration<Value>] = []
  ) -> Self {
    StoredFormat(
      version: version,
      migrations: migrations,
      isJSON: true,
      decode: { try decoder.decode(Value.self, from: $0) },
      encode: { try encoder.encode($0) }
    )
  }
}
