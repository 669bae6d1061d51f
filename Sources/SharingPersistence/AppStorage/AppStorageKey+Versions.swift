public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a `Codable` value in user defaults at a schema version, migrating
  /// values stored at older versions.
  ///
  /// ```swift
  /// @Shared(
  ///   .appStorage(
  ///     "layout",
  ///     version: 2,
  ///     migrations: [
  ///       .from(1, decoding: LayoutV1.self) { old in Layout(columns: old.isCompact ? 1 : 2) }
  ///     ]
  ///   )
  /// )
  /// var layout = Layout()
  /// ```
  ///
  /// The value is stored as JSON data, like a `Codable` value without a version: data
  /// written without a version is version 1, and later versions are stored in the envelope
  /// described in <doc:Migrations>. A value stored at an older version is migrated when it
  /// is loaded and written back at once; a write-back that fails (or a migrated value that
  /// cannot be encoded) sets ``/SharingCore/Shared/saveError``. A value that cannot be
  /// migrated sets ``/SharingCore/Shared/loadError`` to a ``MigrationError``; it is copied to
  /// the key `<key>.corrupt-<UTC timestamp>` before the key is next written.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - version: The schema version the key reads and writes, from 1.
  ///   - migrations: A migration from each older version the key still reads.
  ///   - store: The store to use; by default ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage<Value: Codable>(
    _ key: String,
    version: Int,
    migrations: [SchemaMigration<Value>],
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(
      key,
      store: store,
      lookup: .json(key: key, version: version, migrations: migrations)
    )
  }
}
