public import Foundation
public import SharingDependencies

extension DependencyValues {
  /// The user defaults that `appStorage(_:store:)` uses
  /// when no store is given.
  ///
  /// `UserDefaults.standard` when the program runs; a fresh, empty, temporary store for each
  /// test and preview.
  public var defaultAppStorage: UserDefaults {
    get { self[DefaultAppStorageKey.self].base }
    set { self[DefaultAppStorageKey.self] = UserDefaultsBox(base: newValue) }
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  static var liveValue: UserDefaultsBox { UserDefaultsBox(base: .standard) }
  static var previewValue: UserDefaultsBox { UserDefaultsBox(base: TemporaryUserDefaults.make()) }
  static var testValue: UserDefaultsBox { UserDefaultsBox(base: TemporaryUserDefaults.make()) }
}
