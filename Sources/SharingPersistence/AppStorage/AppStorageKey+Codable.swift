public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a `Codable` value in user defaults, as JSON data.
  ///
  /// ```swift
  /// struct Layout: Codable { var columns = 2 }
  /// @Shared(.appStorage("layout")) var layout = Layout()
  /// ```
  ///
  /// Types that user defaults store natively, and `RawRepresentable` types, use their own
  /// overloads even when they are also `Codable`.
  ///
  /// Stored data that does not decode as `Value` (written by an older version of the type,
  /// say) sets ``/SharingCore/Shared/loadError`` and leaves the default value in memory; it
  /// is copied to the key `<key>.corrupt-<UTC timestamp>` before the key is next written.
  /// To change the type and keep reading what was stored, give the key a schema version: see
  /// <doc:Migrations>.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  @_disfavoredOverload
  public static func appStorage<Value: Codable>(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key, store: store, lookup: .json(key: key))
  }

  /// A key that persists an optional `Codable` value in user defaults, as JSON data; `nil`
  /// removes it.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  @_disfavoredOverload
  public static func appStorage<Value: Codable>(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value?> {
    AppStorageKey(key, store: store, lookup: .optional(.json(key: key)))
  }
}
