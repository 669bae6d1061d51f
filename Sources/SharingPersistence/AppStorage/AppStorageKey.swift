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
/// > `name` in `name.plist` there, or at `name.plist` if `name` is an absolute path. As on
/// > Apple platforms, the store shows a change at once and writes it to its file a moment
/// > later, off the thread that made it: within 50 milliseconds (longer for a store that
/// > takes long to write), at once for ``/SharingCore/Shared/save()`` and for the removal of
/// > a key, and at normal exit. Each write merges the keys this process changed into what
/// > the file holds, with the file locked against every process using this package, so that
/// > processes writing different keys of one store never lose each other's.
public struct AppStorageKey<Value: Sendable>: SharedKey {
  let key: String
  let store: UserDefaultsBox
  let lookup: AppStorageLookup<Value>
  /// The key's hold on its store's record; it also identifies the key's writes, so that its
  /// own subscription does not hear them back.
  private let holder: DefaultsHolder
  /// Whether the key's playbacks overlapped its saves.
  private let overlap = Locked(PlaybackOverlap())
  private var record: DefaultsRecord { holder.record }
  private var writer: ObjectIdentifier { ObjectIdentifier(holder) }

  init(_ key: String, store: UserDefaults?, lookup: AppStorageLookup<Value>) {
    @Dependency(\.defaultAppStorage) var defaultStore
    self.key = key
    self.store = UserDefaultsBox(base: store ?? defaultStore)
    self.lookup = lookup
    self.holder = DefaultsHolder(self.store)
  }

  /// The name of the value and its store.
  public var id: AppStorageKeyID {
    AppStorageKeyID(key: key, store: store)
  }

  /// Reads the value from the store; when the store has no value, writes the default value
  /// to it. A save of the key made meanwhile is followed by a playback of the store to the
  /// key's subscriptions, so that the shared value ends with what the store holds.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    overlap.withLock { $0.playbackBegan() }
    continuation.resume(
      with: read(default: context.initialValue) { continuation.writeBackFinished($0) }
    )
    guard overlap.withLock({ $0.loadEnded() }) else { return }
    playBackToSubscriptions()
  }

  /// Plays back changes made to the key by anything else.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    // The store's keys tell the key when its value changes other than through it, or the
    // store's file can no longer be read; the record watches the file, and tells the outcome
    // of writing a failed change again.
    let id = record.keys.subscribe(key: key, writer: writer) { [self] in
      overlap.withLock { $0.playbackBegan() }
      repeat {
        // Counted before the store is read: a change the program makes since is newer than
        // what it holds, and the shared value keeps it.
        let decidedAt = subscriber.programWriteCount
        subscriber.yield(
          with: read(default: context.initialValue) { subscriber.writeBackFinished($0) },
          decidedAt: decidedAt
        )
      } while overlap.withLock { $0.playbackEnded() }
    }
    let stop = record.subscribe(
      DefaultsRecord.Subscriber(
        onChange: { [weak record] read, _ in record?.played(read) },
        onRetry: { subscriber.writeBackFinished($0) }
      )
    )
    return SharedSubscription { [keys = record.keys] in
      keys.unsubscribe(id)
      stop()
    }
  }

  /// Writes the value to the store, and the store to disk: soon after a change, at once for
  /// ``/SharingCore/Shared/save()``.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    save(reading: { value }, context: context, continuation: continuation)
  }

  /// Writes the value `value` returns to the store, as ``save(_:context:continuation:)``
  /// does; a change of the key played back meanwhile is played back again once the value is
  /// stored, so that the shared value ends with what the store holds.
  public func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    overlap.withLock { $0.saveBegan() }
    store(value(), context: context, continuation: continuation)
    guard overlap.withLock({ $0.saveEnded() }) else { return }
    playBackToSubscriptions()
  }

  /// Plays the store back to the key's own subscriptions, whatever they saw last.
  private func playBackToSubscriptions() {
    for onChange in record.keys.subscriptions(to: key, of: writer) { onChange() }
  }

  /// Encodes the value and stores it.
  private func store(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let object: Any?
    do {
      object = try lookup.encode(value)
    } catch {
      return continuation.resume(throwing: error)
    }
    record.change(
      urgency: context == .userInitiated ? .immediate : .background,
      isRemoval: object == nil,
      continuation: continuation
    ) { $0.store(object, forKey: key, by: writer) }
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
    Result {
      var object = try record.keys.object(forKey: key).get()
      if object == nil, let defaultValue, let encoded = try? lookup.encode(defaultValue) {
        // Another thread may have stored a value since: then it is read.
        record.change(urgency: .background) { keys in
          let stored = keys.storeDefault(encoded, forKey: key, by: writer)
          object = stored.found
          return object == nil ? stored.changed : nil
        }
      }
      guard let object else { return nil }
      do {
        guard let found = try lookup.read(object) else {
          throw AppStorageError.wrongType(
            key: key,
            stored: "\(type(of: object))",
            expected: "\(Value.self)"
          )
        }
        if found.isMigrated {
          // Written back at once, so that the value is migrated once, not at every load. A
          // migrated value that cannot be encoded leaves the stored one alone, to be migrated
          // again at the next load. It stores what the read hands over, so it is no save a
          // playback could overlap.
          store(
            found.value,
            context: .userInitiated,
            continuation: SaveContinuation(self.description, callback: writeBack)
          )
        }
        return found.value
      } catch {
        record.keys.keepBeforeNextWrite(forKey: key)
        throw error
      }
    }
  }
}

extension AppStorageKey: CustomStringConvertible {
  /// The key as written at the call site, e.g. `.appStorage("count")`.
  public var description: String {
    ".appStorage(\(String(reflecting: key)))"
  }
}
