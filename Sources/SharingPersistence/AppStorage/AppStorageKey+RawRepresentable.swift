public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a value in user defaults by its integer raw value.
  ///
  /// ```swift
  /// enum Priority: Int { case low, high }
  /// @Shared(.appStorage("priority")) var priority = Priority.low
  /// ```
  ///
  /// A stored raw value with no matching value gives the default value and sets
  /// ``/SharingCore/Shared/loadError``.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage<Value: RawRepresentable<Int>>(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key, store: store, lookup: .rawValue())
  }

  /// A key that persists a value in user defaults by its string raw value.
  ///
  /// ```swift
  /// enum Theme: String { case light, dark }
  /// @Shared(.appStorage("theme")) var theme = Theme.light
  /// ```
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage<Value: RawRepresentable<String>>(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key, store: store, lookup: .rawValue())
  }

  /// A key that persists an optional value in user defaults by its integer raw value; `nil`
  /// removes it.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage<Value: RawRepresentable<Int>>(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value?> {
    AppStorageKey(key, store: store, lookup: .optional(.rawValue()))
  }

  /// A key that persists an optional value in user defaults by its string raw value; `nil`
  /// removes it.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage<Value: RawRepresentable<String>>(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value?> {
    AppStorageKey(key, store: store, lookup: .optional(.rawValue()))
  }
}
