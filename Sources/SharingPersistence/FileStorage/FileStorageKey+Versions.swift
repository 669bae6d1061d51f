public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a `Codable` value to a file at a schema version, migrating values
  /// stored at older versions.
  ///
  /// ```swift
  /// @Shared(
  ///   .fileStorage(
  ///     .todos,
  ///     version: 2,
  ///     migrations: [
  ///       .from(1, decoding: [TodoV1].self) { old in
  ///         old.map { Todo(title: $0.title, isDone: $0.isDone, dueDate: nil) }
  ///       }
  ///     ]
  ///   )
  /// )
  /// var todos: [Todo] = []
  /// ```
  ///
  /// A file written without a version is version 1. A value stored at an older version is
  /// migrated when it is loaded, and written back at once in the current version. A value
  /// that cannot be migrated sets ``/SharingCore/Shared/loadError`` to a ``MigrationError`` and leaves
  /// the default value in memory; its bytes are kept in a sibling file before the file is
  /// next written. See <doc:Migrations>.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - version: The schema version the key reads and writes, from 1.
  ///   - migrations: A migration from each older version the key still reads.
  ///   - throttle: The least time between two writes after changes, if not the storage's
  ///     (a second, by default); zero writes every change through.
  ///   - decoder: The decoder that reads the value at the current version.
  ///   - encoder: The encoder that writes the value; by default pretty-printed JSON with
  ///     sorted keys.
  /// - Returns: A file storage key.
  public static func fileStorage<Value: Codable>(
    _ url: URL,
    version: Int,
    migrations: [SchemaMigration<Value>],
    throttle: Duration? = nil,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = defaultFileStorageEncoder()
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      format: .json(
        decoder: decoder,
        encoder: encoder,
        version: version,
        migrations: migrations
      ),
      throttle: throttle
    )
  }

  /// A key that persists any value to a file with custom coding, at a schema version,
  /// migrating values stored at older versions.
  ///
  /// ```swift
  /// @Shared(
  ///   .fileStorage(
  ///     .notes,
  ///     version: 2,
  ///     migrations: [.from(1) { data in Notes(markdown: String(decoding: data, as: UTF8.self)) }],
  ///     decode: { try Notes(archive: $0) },
  ///     encode: { try $0.archive() }
  ///   )
  /// )
  /// var notes = Notes()
  /// ```
  ///
  /// From version 2, the bytes `encode` makes are held in a small JSON envelope, as text
  /// when they are UTF-8 and in base 64 otherwise. See <doc:Migrations>.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - version: The schema version the key reads and writes, from 1.
  ///   - migrations: A migration from each older version the key still reads.
  ///   - throttle: The least time between two writes after changes, if not the storage's
  ///     (a second, by default); zero writes every change through.
  ///   - decode: Makes a value from bytes at the current version.
  ///   - encode: Makes the bytes of a value at the current version.
  /// - Returns: A file storage key.
  public static func fileStorage<Value>(
    _ url: URL,
    version: Int,
    migrations: [SchemaMigration<Value>],
    throttle: Duration? = nil,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      format: StoredFormat(
        version: version,
        migrations: migrations,
        isJSON: false,
        decode: decode,
        encode: encode
      ),
      throttle: throttle
    )
  }
}
