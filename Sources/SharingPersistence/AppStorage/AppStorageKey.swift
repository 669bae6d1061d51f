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
/// It stores `Bool`, `Int`, `Double`, `String`, `[String]`, `URL`, `Data` and `Date` values
/// natively, `RawRepresentable` values by their `Int` or `String` raw value, `Codable`
/// values as JSON data, and optionals of all of these (`nil` removes the key). When the store
/// has no value for the key, the default value is written to it on first load, as
/// swift-sharing does.
///
/// Changes to the key made by anything else are played back: another shared value in this
/// process, a direct `store.set(_:forKey:)` (before it returns, for the stores the package
/// hands out), or another process using the same store.
///
/// A stored value that cannot be read as the key's type (of the wrong type, a raw value with
/// no matching case, JSON that does not decode) gives the default value and sets
/// ``/SharingCore/Shared/loadError``. It is left as it is until the shared value changes,
/// which first copies it to the key `<key>.corrupt-<UTC timestamp>` in the same store. A
/// store whose file is not a property list is copied aside before anything rewrites it
/// (see <doc:Guarantees>), and a store that cannot be written sets
/// ``/SharingCore/Shared/saveError``.
///
/// > Note: On Linux, Foundation keeps `UserDefaults.standard` in
/// > `$XDG_CONFIG_HOME/<process name>.plist` (by default `~/.config/`), and a suite named
/// > `name` in `name.plist` there, or at `name.plist` if `name` is an absolute path. The first
/// > change in a while reaches the file before `withLock` returns; later ones within a
/// > fraction of a second, and at normal exit.
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

  /// Reads the value from the store; when the store has no value, writes the default value
  /// to it.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resume(
      with: read(default: context.initialValue) { continuation.writeBackFinished($0) }
    )
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
      subscriber.yield(
        with: read(default: context.initialValue) { subscriber.writeBackFinished($0) }
      )
    }
    return SharedSubscription(cancel)
  }

  /// Writes the value to the store, and the store to disk: at once for the first change in
  /// a while and for ``/SharingCore/Shared/save()``, with the next write otherwise.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let object: Any?
    do {
      object = try lookup.encode(value)
    } catch {
      return continuation.resume(throwing: error)
    }
    AppStorageCenter.shared.write(
      object,
      forKey: key,
      in: store,
      by: ObjectIdentifier(writer),
      saving: continuation,
      urgency: context == .userInitiated ? .immediate : .throttled
    )
  }

  /// The stored value, or `nil` for the default value; a failure for a value that cannot be
  /// read, which is kept aside before the key is next written.
  ///
  /// When the store has no value, `defaultValue` is written to it, as swift-sharing does.
  ///
  /// - Parameter writeBack: Told how writing back a migrated value went.
  private func read(
    default defaultValue: Value?,
    writeBack: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) -> Result<Value?, any Error> {
    let object: Any?
    switch AppStorageCenter.shared.object(forKey: key, in: store) {
    case .success(let stored): object = stored
    case .failure(let error): return .failure(error)
    }
    guard let object else {
      if let defaultValue, let encoded = try? lookup.encode(defaultValue) {
        AppStorageCenter.shared.write(
          encoded,
          forKey: key,
          in: store,
          by: ObjectIdentifier(writer),
          urgency: .background
        )
      }
      return .success(nil)
    }
    do {
      guard let (value, isMigrated) = try lookup.read(object) else {
        AppStorageCenter.shared.keepBeforeNextWrite(forKey: key, in: store)
        return .failure(
          AppStorageError.wrongType(
            key: key,
            stored: "\(type(of: object))",
            expected: "\(Value.self)"
          )
        )
      }
      if isMigrated { self.writeBack(migrated: value, finished: writeBack) }
      return .success(value)
    } catch {
      AppStorageCenter.shared.keepBeforeNextWrite(forKey: key, in: store)
      return .failure(error)
    }
  }

  /// Stores a migrated value at once, so that the value is migrated once, not at every load;
  /// tells `finished` how it went, which a loading value shows as its save error.
  ///
  /// A migrated value that cannot be encoded leaves the stored one alone, to be migrated
  /// again at the next load.
  private func writeBack(
    migrated value: Value,
    finished: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) {
    let object: Any?
    do {
      object = try lookup.encode(value)
    } catch {
      // NB: A condition of the data, not a programmer error: 'saveError' says it.
      return finished(.failure(error))
    }
    AppStorageCenter.shared.write(
      object,
      forKey: key,
      in: store,
      by: ObjectIdentifier(writer),
      saving: SaveContinuation(self.description, callback: finished),
      urgency: .immediate
    )
  }

  private final class Writer: Sendable {}
}

extension AppStorageKey: CustomStringConvertible {
  /// The key as written at the call site, e.g. `.appStorage("count")`.
  public var description: String {
    ".appStorage(\(String(reflecting: key)))"
  }
}
