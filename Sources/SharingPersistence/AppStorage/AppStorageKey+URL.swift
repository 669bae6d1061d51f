public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a URL in user defaults, as its absolute string.
  ///
  /// ```swift
  /// @Shared(.appStorage("homePage")) var homePage = URL(string: "https://www.pointfree.co")!
  /// ```
  ///
  /// Any URL round-trips exactly, whatever its scheme. A path stored by
  /// `UserDefaults.set(_: URL, forKey:)` is read as a file URL.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<URL> {
    AppStorageKey(key, store: store, lookup: URLLookup())
  }

  /// A key that persists an optional URL in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("lastOpened")) var lastOpened: URL?
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
  ) -> Self where Self == AppStorageKey<URL?> {
    AppStorageKey(key, store: store, lookup: OptionalLookup(base: URLLookup()))
  }
}
