import Foundation

/// User defaults whose direct changes (`set(_:forKey:)`, `removeObject(forKey:)`) reach every
/// ``AppStorageKey`` of the changed key before the call returns.
///
/// The stores the package hands out are of this class: the live and test values of
/// ``SharingDependencies/DependencyValues/defaultAppStorage`` and `UserDefaults.inMemory`.
/// On Linux, Foundation has no other way to tell of a change as it happens; changes made
/// through other store objects are noticed by ``AppStorageCenter``'s tick.
final class ObservedUserDefaults: UserDefaults {
  /// Whether the current write is made by ``AppStorageCenter`` for a key, which tells the
  /// subscriptions itself.
  @TaskLocal static var isWritingForKey = false

  override func set(_ value: Any?, forKey defaultName: String) {
    guard !Self.isWritingForKey else { return super.set(value, forKey: defaultName) }
    AppStorageCenter.shared.change(
      UserDefaultsBox(base: self),
      forKey: defaultName,
      isRemoval: value == nil
    ) { super.set(value, forKey: defaultName) }
  }

  override func removeObject(forKey defaultName: String) {
    guard !Self.isWritingForKey else { return super.removeObject(forKey: defaultName) }
    AppStorageCenter.shared.change(
      UserDefaultsBox(base: self),
      forKey: defaultName,
      isRemoval: true
    ) { super.removeObject(forKey: defaultName) }
  }
}
