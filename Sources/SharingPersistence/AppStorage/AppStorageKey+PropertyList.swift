public import Foundation
public import SharingCore

// Values that user defaults store natively, and their optionals.
extension SharedReaderKey {

  /// A key that persists a Boolean in user defaults.
  ///
  /// ```swift
  /// @Shared(.appStorage("isHapticsEnabled")) var isHapticsEnabled = true
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
  ) -> Self where Self == AppStorageKey<Bool> {
    AppStorageKey(key, store: store, lookup: .native)
  }

  /// A key that persists an integer in user defaults.
  ///
  /// ```swift
  /// @Shared(.appStorage("launchCount")) var launchCount = 0
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
  ) -> Self where Self == AppStorageKey<Int> {
    AppStorageKey(key, store: store, lookup: .native)
  }

  /// A key that persists a floating-point number in user defaults.
  ///
  /// ```swift
  /// @Shared(.appStorage("volume")) var volume = 0.5
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
  ) -> Self where Self == AppStorageKey<Double> {
    AppStorageKey(key, store: store, lookup: .native)
  }

  /// A key that persists a string in user defaults.
  ///
  /// ```swift
  /// @Shared(.appStorage("username")) var username = ""
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
  ) -> Self where Self == AppStorageKey<String> {
    AppStorageKey(key, store: store, lookup: .native)
  }

  /// A key that persists data in user defaults.
  ///
  /// ```swift
  /// @Shared(.appStorage("avatar")) var avatar = Data()
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
  ) -> Self where Self == AppStorageKey<Data> {
    AppStorageKey(key, store: store, lookup: .native)
  }

  /// A key that persists a date in user defaults.
  ///
  /// ```swift
  /// @Shared(.appStorage("lastSync")) var lastSync = Date.distantPast
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
  ) -> Self where Self == AppStorageKey<Date> {
    AppStorageKey(key, store: store, lookup: .native)
  }

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

  /// A key that persists an optional Boolean in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("isHapticsEnabled")) var isHapticsEnabled: Bool? = nil
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
  ) -> Self where Self == AppStorageKey<Bool?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
  }

  /// A key that persists an optional integer in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("launchCount")) var launchCount: Int? = nil
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
  ) -> Self where Self == AppStorageKey<Int?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
  }

  /// A key that persists an optional floating-point number in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("volume")) var volume: Double? = nil
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
  ) -> Self where Self == AppStorageKey<Double?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
  }

  /// A key that persists an optional string in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("username")) var username: String? = nil
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
  ) -> Self where Self == AppStorageKey<String?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
  }

  /// A key that persists optional data in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("avatar")) var avatar: Data? = nil
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
  ) -> Self where Self == AppStorageKey<Data?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
  }

  /// A key that persists an optional date in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("lastSync")) var lastSync: Date? = nil
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
  ) -> Self where Self == AppStorageKey<Date?> {
    AppStorageKey(key, store: store, lookup: .optional(.native))
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
