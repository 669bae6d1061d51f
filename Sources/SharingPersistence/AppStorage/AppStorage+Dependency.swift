public import Foundation
public import SharingDependencies

extension DependencyValues {
  /// The user defaults that `appStorage(_:store:)` uses
  /// when no store is given.
  ///
  /// The standard user defaults when the program runs; a fresh, empty, temporary store
  /// (``Foundation/UserDefaults/inMemory``) for each test and preview.
  ///
  /// Changes made directly through this store (`set(_:forKey:)`, `removeObject(forKey:)`)
  /// are seen by every shared value of the key before the call returns. Changes made through
  /// other store objects, `UserDefaults.standard` included, and by other processes, are seen
  /// a moment later.
  ///
  /// ```swift
  /// prepareDependencies { $0.defaultAppStorage = .inMemory }
  /// ```
  public var defaultAppStorage: UserDefaults {
    get { self[DefaultAppStorageKey.self].base }
    set { self[DefaultAppStorageKey.self] = UserDefaultsBox(base: newValue) }
  }

  /// Whether `appStorage` warns about keys that contain a `.` or start with `@`.
  ///
  /// swift-sharing warns about such keys on Apple platforms, where it cannot observe them
  /// with key-value observing. This package observes every key the same way, so it never
  /// warns, and this value has no effect; it exists so that code setting it compiles.
  ///
  /// ```swift
  /// prepareDependencies { $0.appStorageKeyFormatWarningEnabled = false }
  /// ```
  public var appStorageKeyFormatWarningEnabled: Bool {
    get { self[AppStorageKeyFormatWarningEnabledKey.self] }
    set { self[AppStorageKeyFormatWarningEnabledKey.self] = newValue }
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  // NB: A store of the package's own class on the standard domain, rather than
  //     'UserDefaults.standard' itself: its direct changes are seen at once.
  static let liveValue = UserDefaultsBox(base: ObservedUserDefaults())
  static var previewValue: UserDefaultsBox { UserDefaultsBox(base: .inMemory) }
  static var testValue: UserDefaultsBox { UserDefaultsBox(base: .inMemory) }
}

private enum AppStorageKeyFormatWarningEnabledKey: DependencyKey {
  static let liveValue = true
  static let testValue = true
}

extension UserDefaults {
  /// A fresh, empty store that shares nothing with any other, for tests, previews and
  /// programs that must not touch the user's defaults.
  ///
  /// ```swift
  /// prepareDependencies { $0.defaultAppStorage = .inMemory }
  /// ```
  ///
  /// Each access gives a new store. Its changes are seen at once by every shared value of the
  /// changed key, like those of ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// On Linux, Foundation keeps every store in a file: this one lives in a temporary
  /// directory that is removed when the process exits.
  public static var inMemory: UserDefaults {
    let suiteName = TemporaryUserDefaults.makeSuiteName()
    guard let store = ObservedUserDefaults(suiteName: suiteName) else {
      preconditionFailure("Foundation refused the suite name \(suiteName).")
    }
    return store
  }
}
