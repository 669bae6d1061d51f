import Foundation

/// User defaults whose direct changes (`set(_:forKey:)`, `removeObject(forKey:)`) reach every
/// ``AppStorageKey`` of the changed key before the call returns, and reach the store's file
/// like a key's changes.
///
/// The stores the package hands out are of this class: the live and test values of
/// ``SharingDependencies/DependencyValues/defaultAppStorage`` and `UserDefaults.inMemory`.
/// On Linux, Foundation has no other way to tell of a change as it happens.
final class ObservedUserDefaults: UserDefaults {
  /// Whether the current write is made by the package for a key, which tells the
  /// subscriptions itself.
  @TaskLocal static var isWritingForKey = false

  override func set(_ value: Any?, forKey defaultName: String) {
    guard !Self.isWritingForKey else { return super.set(value, forKey: defaultName) }
    change(forKey: defaultName, to: value)
  }

  override func removeObject(forKey defaultName: String) {
    guard !Self.isWritingForKey else { return super.removeObject(forKey: defaultName) }
    change(forKey: defaultName, to: nil)
  }

  private func change(forKey key: String, to value: Any?) {
    // Held until the change is saved: a record nothing holds may be released meanwhile.
    withExtendedLifetime(DefaultsHolder(UserDefaultsBox(base: self))) { holder in
      holder.record.change(urgency: .background, isRemoval: value == nil) {
        $0.store(value, forKey: key)
      }
    }
  }
}
