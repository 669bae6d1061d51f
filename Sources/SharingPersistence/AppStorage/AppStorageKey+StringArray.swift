public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists an array of strings in user defaults, as a property list array.
  ///
  /// ```swift
  /// @Shared(.appStorage("recentSearches")) var recentSearches: [String] = []
  /// ```
  ///
  /// The stored array reads back with `stringArray(forKey:)`, and an array of strings stored
  /// by `set(_:forKey:)` is read as the value.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<[String]> {
    AppStorageKey(key, store: store, lookup: .native)
  }

  /// A key that persists an optional array of strings in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("pinnedTags")) var pinnedTags: [String]? = nil
  /// ```
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<[String]?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
  }
}
