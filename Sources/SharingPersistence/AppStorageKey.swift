import Foundation
public import SharingCore
import SharingDependencies

/// A ``/SharingCore/SharedKey`` that persists a value in user defaults.
///
/// Create one with `appStorage(_:store:)`:
///
/// ```swift
/// @Shared(.appStorage("isHapticsEnabled")) var isHapticsEnabled = true
/// ```
///
/// It stores `Bool`, `Int`, `Double`, `String`, `URL`, `Data` and `Date` values natively,
/// `RawRepresentable` values by their `Int` or `String` raw value, `Codable` values as JSON
/// data, and optionals of all of these (`nil` removes the key).
///
/// Changes to the key made by anything else are played back: another shared value in this
/// process, a direct `store.set(_:forKey:)`, or another process using the same store.
/// A stored value of the wrong type gives the default value and reports an issue naming the
/// key; JSON data that does not decode as a `Codable` value also sets
/// ``/SharingCore/Shared/loadError``. Such a value is left as it is until the shared value
/// changes, which first copies it to the key `<key>.corrupt-<UTC timestamp>` in the same
/// store.
///
/// > Note: On Linux, Foundation keeps `UserDefaults.standard` in
/// > `$XDG_CONFIG_HOME/<process name>.plist` (by default `~/.config/`), and a suite named
/// > `name` in `name.plist` there, or at `name.plist` if `name` is an absolute path. Changes
/// > made through keys reach the file within a fraction of a second, and at normal exit.
public struct AppStorageKey<Value: Sendable>: SharedKey {
  let key: String
  let store: UserDefaultsBox
  let lookup: any AppStorageLookup<Value>
  /// Identifies this key's writes, so that its own subscription does not hear them back.
  private let writer = Writer()

  init(_ key: String, store: UserDefaults?, lookup: some AppStorageLookup<Value>) {
    @Dependency(\.defaultAppStorage) var defaultStore
    self.key = key
    self.store = UserDefaultsBox(base: store ?? defaultStore)
    self.lookup = lookup
  }

  /// The name of the value and its store.
  public var id: AppStorageKeyID {
    AppStorageKeyID(key: key, store: store)
  }

  /// Reads the value from the store.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resume(with: read())
  }

  /// Plays back changes made to the key by anything else.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    let cancel = AppStorageCenter.shared.subscribe(
      key: key,
      in: store,
      writer: ObjectIdentifier(writer)
    ) { [self] in
      subscriber.yield(with: read())
    }
    return SharedSubscription(cancel)
  }

  /// Writes the value to the store; ``/SharingCore/Shared/save()`` also writes the store to disk at
  /// once.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    do {
      let object = try lookup.encode(value)
      AppStorageCenter.shared.write(object, forKey: key, in: store, by: ObjectIdentifier(writer))
      if context == .userInitiated { AppStorageCenter.shared.synchronize(store) }
      continuation.resume()
    } catch {
      continuation.resume(throwing: error)
    }
  }

  /// The stored value, or `nil` for the default value; a failure for a value that cannot be
  /// decoded or migrated. A value that cannot be read is kept aside before the key is next
  /// written.
  private func read() -> Result<Value?, any Error> {
    guard let object = AppStorageCenter.shared.object(forKey: key, in: store) else {
      return .success(nil)
    }
    do {
      guard let (value, isMigrated) = try lookup.read(object) else {
        AppStorageCenter.shared.keepBeforeNextWrite(forKey: key, in: store)
        reportIssue(
          """
          The value stored for \(self) has type '\(type(of: object))', which cannot be read as \
          '\(Value.self)'. The default value is used; the stored value is kept under \
          '\(key).corrupt-<timestamp>' before the key is next written.
          """
        )
        return .success(nil)
      }
      if isMigrated { writeBack(migrated: value) }
      return .success(value)
    } catch {
      AppStorageCenter.shared.keepBeforeNextWrite(forKey: key, in: store)
      reportIssue(
        error,
        """
        The value stored for \(self) could not be read as '\(Value.self)'; the default value is \
        used. It is kept under '\(key).corrupt-<timestamp>' before the key is next written.
        """
      )
      return .failure(error)
    }
  }

  /// Stores a migrated value at once, so that the value is migrated once, not at every load.
  ///
  /// A migrated value that cannot be encoded leaves the stored one alone, to be migrated
  /// again at the next load.
  private func writeBack(migrated value: Value) {
    let object: Any?
    do {
      object = try lookup.encode(value)
    } catch {
      return reportIssue(
        error,
        """
        The value stored for \(self) was migrated, but the migrated value could not be encoded; \
        the stored value is left as it is.
        """
      )
    }
    AppStorageCenter.shared.write(object, forKey: key, in: store, by: ObjectIdentifier(writer))
  }

  private final class Writer: Sendable {}
}

extension AppStorageKey: CustomStringConvertible {
  /// The key as written at the call site, e.g. `.appStorage("count")`.
  public var description: String {
    ".appStorage(\(String(reflecting: key)))"
  }
}
