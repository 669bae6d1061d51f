import Dispatch
import Foundation
import SharingDependencies

/// Notices changes to user defaults and keeps them on disk, for every ``AppStorageKey``
/// subscription in the process.
///
/// On Linux, Foundation posts no `UserDefaults.didChangeNotification` and supports no
/// key-value observing, and it only writes a store's property list when `synchronize()` is
/// called. So, while any subscription exists or any store has unsaved changes, the center
/// ticks every ``pollInterval`` on a private queue:
///
/// 1. it synchronises each store in use, which writes changes made in this process and reads
///    changes another process wrote (Foundation compares the file's modification time, so
///    this costs well under a microsecond when nothing changed);
/// 2. it compares each subscribed key with the value last seen, and calls the subscriptions
///    whose value changed, outside the lock. This also catches `store.set(_:forKey:)` calls
///    made directly in this process.
///
/// Writes made through a key are applied at once and compared under the same lock, so the
/// writing subscription never hears its own write back, while other subscriptions on the
/// same store and key are told immediately. Unsaved stores are synchronised at exit.
final class AppStorageCenter: Sendable {
  static let shared = AppStorageCenter()

  /// How often changes are looked for.
  static let pollInterval = DispatchTimeInterval.milliseconds(50)

  private struct Subscription {
    let store: UserDefaultsBox
    let key: String
    let writer: ObjectIdentifier
    var lastSeen: StoredDefaultsValue
    let onChange: @Sendable () -> Void
  }

  private struct State {
    var nextID = 0
    var subscriptions: [Int: Subscription] = [:]
    var unsavedStores: Set<UserDefaultsBox> = []
    var isPolling = false
    /// Values that could not be read, by store and key, to keep before they are overwritten.
    var unreadable: Set<UnreadableKey> = []
  }

  private struct UnreadableKey: Hashable {
    let store: UserDefaultsBox
    let key: String
  }

  private let state = Locked(State())
  private let queue = DispatchQueue(label: "Sharing.AppStorage")

  private init() {
    ExitFlush.register { [self] in synchronizeUnsavedStores() }
  }

  /// Calls `onChange` whenever the value for `key` changes by any means other than a write
  /// made through ``write(_:forKey:in:by:)`` by the same `writer`.
  func subscribe(
    key: String,
    in store: UserDefaultsBox,
    writer: ObjectIdentifier,
    onChange: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    let (id, startsPolling) = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.subscriptions[id] = Subscription(
        store: store,
        key: key,
        writer: writer,
        lastSeen: StoredDefaultsValue(store.base.object(forKey: key)),
        onChange: onChange
      )
      return (id, startPollingIfNeeded(&state))
    }
    if startsPolling { schedulePoll() }
    return { [self] in
      state.withLock { _ = $0.subscriptions.removeValue(forKey: id) }
    }
  }

  /// Stores a property list value (or removes it, for `nil`) and tells the other
  /// subscriptions to the key.
  func write(
    _ object: Any?,
    forKey key: String,
    in store: UserDefaultsBox,
    by writer: ObjectIdentifier
  ) {
    let (changed, startsPolling) = state.withLock { state in
      keepUnreadableValue(forKey: key, in: store, state: &state)
      if let object {
        store.base.set(object, forKey: key)
      } else {
        // NB: Not 'set(nil, forKey:)': on Linux it resolves to the 'URL?' overload, which
        //     never returns. And synchronised at once: until then, Linux reads a removed key
        //     from the property list on disk.
        store.base.removeObject(forKey: key)
        store.base.synchronize()
      }
      let value = StoredDefaultsValue(store.base.object(forKey: key))
      var changed: [@Sendable () -> Void] = []
      for (id, subscription) in state.subscriptions.sorted(by: { $0.key < $1.key })
      where subscription.store == store && subscription.key == key {
        if subscription.writer != writer && subscription.lastSeen != value {
          changed.append(subscription.onChange)
        }
        state.subscriptions[id]?.lastSeen = value
      }
      state.unsavedStores.insert(store)
      return (changed, startPollingIfNeeded(&state))
    }
    if startsPolling { schedulePoll() }
    for onChange in changed { onChange() }
  }

  /// Marks the object stored for a key as unreadable: when the key is next written, what it
  /// stores then is first copied to `<key>.corrupt-<UTC timestamp>`.
  func keepBeforeNextWrite(forKey key: String, in store: UserDefaultsBox) {
    state.withLock { _ = $0.unreadable.insert(UnreadableKey(store: store, key: key)) }
  }

  private func keepUnreadableValue(
    forKey key: String,
    in store: UserDefaultsBox,
    state: inout State
  ) {
    // NB: What is stored now is kept, not what was seen at load: a synchronisation in
    //     between reloads the store, and a date read back from its property list has lost
    //     its fractional seconds, so it no longer equals what was seen. Keeping a value that
    //     another program already replaced costs a key; skipping one loses it.
    guard
      !state.unreadable.isEmpty,
      state.unreadable.remove(UnreadableKey(store: store, key: key)) != nil,
      let object = store.base.object(forKey: key)
    else { return }
    let date = Date()
    var attempt = 1
    while store.base.object(
      forKey: CorruptFile.preservationName(for: key, at: date, attempt: attempt)
    ) != nil {
      attempt += 1
    }
    store.base.set(
      object,
      forKey: CorruptFile.preservationName(for: key, at: date, attempt: attempt)
    )
  }

  /// The object stored for a key.
  ///
  /// Read under the lock, like every other access the center makes: on Linux, Foundation's
  /// user defaults can return stale values to a read that races a write or a
  /// `synchronize()` of the same store.
  func object(forKey key: String, in store: UserDefaultsBox) -> Any? {
    state.withLock { _ in store.base.object(forKey: key) }
  }

  /// Writes a store's changes to disk now.
  func synchronize(_ store: UserDefaultsBox) {
    state.withLock { state in
      state.unsavedStores.remove(store)
      store.base.synchronize()
    }
  }

  // MARK: Polling

  private func startPollingIfNeeded(_ state: inout State) -> Bool {
    guard !state.isPolling else { return false }
    state.isPolling = true
    return true
  }

  private func schedulePoll() {
    queue.asyncAfter(deadline: .now() + Self.pollInterval) { [self] in poll() }
  }

  private func poll() {
    let (changed, continues) = state.withLock { state in
      // NB: Synchronised under the lock, never while a key writes: on Linux a write racing
      //     'synchronize()' can be lost when it reloads the property list.
      for store in state.unsavedStores.union(state.subscriptions.values.map(\.store)) {
        store.base.synchronize()
      }
      state.unsavedStores = []
      var changed: [@Sendable () -> Void] = []
      for (id, subscription) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
        let value = StoredDefaultsValue(subscription.store.base.object(forKey: subscription.key))
        guard value != subscription.lastSeen else { continue }
        state.subscriptions[id]?.lastSeen = value
        changed.append(subscription.onChange)
      }
      state.isPolling = !state.subscriptions.isEmpty || !state.unsavedStores.isEmpty
      return (changed, state.isPolling)
    }
    for onChange in changed { onChange() }
    if continues { schedulePoll() }
  }

  /// Writes every store with changes made through a key to disk now.
  func synchronizeUnsavedStores() {
    state.withLock { state in
      for store in state.unsavedStores { store.base.synchronize() }
      state.unsavedStores = []
    }
  }
}
