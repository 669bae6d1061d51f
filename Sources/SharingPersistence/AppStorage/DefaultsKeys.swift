import Foundation
import SharingDependencies

/// The keys of one user defaults store that the shared values of this process use, and every
/// access the package makes to the store: what each subscription last saw, so that it hears
/// of each change once, and never of its own write.
///
/// Each access is made under one lock, so that a subscription compares a value with what it
/// saw while nothing else changes either.
final class DefaultsKeys: Sendable {
  struct Subscription {
    let key: String
    /// The key instance that subscribed: its own writes are not played back to it.
    let writer: ObjectIdentifier
    /// What the store held for the key when the subscription last looked; `nil` if the
    /// store's file could not be read.
    var lastSeen: StoredDefaultsValue?
    let onChange: @Sendable () -> Void
  }

  private struct State {
    var subscriptions: [Int: Subscription] = [:]
    var nextID = 0
    /// Keys whose stored value could not be read: it is kept aside before they are written.
    var unreadableKeys: Set<String> = []
    /// Why the store's file cannot be read, until it can.
    var fileError: (any Error)?
    /// What the file held when the store was last synchronized with it.
    var synchronized: Data??
    /// The keys stored through the package since the store was last synchronized, and what
    /// each holds: set again if a synchronization lost it.
    var unsynchronized: [String: Stored] = [:]
    /// How long the last synchronization took.
    var lastDuration = Duration.zero
  }

  /// An object stored for a key, and its comparable value.
  struct Stored {
    let object: Any?
    let value: StoredDefaultsValue
  }

  let store: UserDefaultsBox
  private let state = Locked(State())

  init(store: UserDefaultsBox, fileError: (any Error)?) {
    self.store = store
    state.withLock { $0.fileError = fileError }
  }

  /// Calls `onChange` whenever the value for `key` changes other than through `writer`, or
  /// the store's file can no longer be read, until ``unsubscribe(_:)``.
  func subscribe(
    key: String,
    writer: ObjectIdentifier,
    onChange: @escaping @Sendable () -> Void
  ) -> Int {
    state.withLock { state in
      defer { state.nextID += 1 }
      state.subscriptions[state.nextID] = Subscription(
        key: key,
        writer: writer,
        lastSeen: seen(key, fileError: state.fileError),
        onChange: onChange
      )
      return state.nextID
    }
  }

  func unsubscribe(_ id: Int) {
    state.withLock { _ = $0.subscriptions.removeValue(forKey: id) }
  }

  /// The object stored for a key, or why the store cannot be read.
  func object(forKey key: String) -> Result<Any?, any Error> {
    state.withLock { state in
      if let error = state.fileError { return .failure(error) }
      return .success(store.base.object(forKey: key))
    }
  }

  /// Stores a property list value (or removes the key, for `nil`) through `writer`; returns
  /// the other subscriptions to tell.
  func store(
    _ object: Any?,
    forKey key: String,
    by writer: ObjectIdentifier
  ) -> [@Sendable () -> Void] {
    state.withLock { state in
      if state.unreadableKeys.remove(key) != nil { keepStoredValue(forKey: key) }
      set(object, forKey: key)
      let value = StoredDefaultsValue(object)
      state.unsynchronized[key] = Stored(object: object, value: value)
      return tell(&state, key: key, seeing: value, except: writer)
    }
  }

  private func set(_ object: Any?, forKey key: String) {
    ObservedUserDefaults.$isWritingForKey.withValue(true) {
      if let object {
        store.base.set(object, forKey: key)
      } else {
        // NB: Not 'set(nil, forKey:)': on Linux it resolves to the 'URL?' overload, which
        //     never returns.
        store.base.removeObject(forKey: key)
      }
    }
  }

  /// Makes a change directly through the store (`change`, of `key`); returns the
  /// subscriptions to tell.
  func change(forKey key: String, isRemoval: Bool, by change: () -> Void) -> [@Sendable () -> Void]
  {
    state.withLock { state in
      ObservedUserDefaults.$isWritingForKey.withValue(true, operation: change)
      // NB: Until a removal is synchronized, Foundation on Linux reads the key from the file.
      let object = isRemoval ? nil : store.base.object(forKey: key)
      let value = StoredDefaultsValue(object)
      state.unsynchronized[key] = Stored(object: object, value: value)
      return tell(&state, key: key, seeing: value, except: nil)
    }
  }

  /// Marks the object stored for a key as unreadable: when the key is next written, what it
  /// stores then is first copied to `<key>.corrupt-<UTC timestamp>`.
  func keepBeforeNextWrite(forKey key: String) {
    state.withLock { _ = $0.unreadableKeys.insert(key) }
  }

  // MARK: Synchronizing

  /// The keys stored through the package since the store was last synchronized that still
  /// hold what was stored: the others were changed since through another store object.
  ///
  /// A removal always counts as stored: until it is synchronized, Foundation reads the key
  /// from the file.
  func unsynchronizedStillStored() -> [String: Stored] {
    state.withLock { state in
      state.unsynchronized = state.unsynchronized.filter { key, stored in
        stored.value == .missing
          || StoredDefaultsValue(store.base.object(forKey: key)) == stored.value
      }
      return state.unsynchronized
    }
  }

  /// Stores again each of `keys` that a synchronization replaced by what the file held:
  /// Foundation writes only the keys it saw change, and a key set to what its copy of the
  /// store held, older than the file, did not. Returns whether it stored any.
  func storeAgainIfLost(_ keys: some Sequence<String>) -> Bool {
    state.withLock { state in
      var isLost = false
      for key in keys {
        guard let stored = state.unsynchronized[key],
          StoredDefaultsValue(store.base.object(forKey: key)) != stored.value
        else { continue }
        isLost = true
        set(stored.object, forKey: key)
      }
      return isLost
    }
  }

  /// The store was synchronized with its file, in `duration`, and the file holds `contents`
  /// (`nil`: none): `written` are written, unless stored again since. Returns the
  /// subscriptions whose value changed, or which saw the file unreadable.
  func synchronized(
    to contents: Data?,
    in duration: Duration = .zero,
    writing written: [String: Stored] = [:]
  ) -> [@Sendable () -> Void] {
    state.withLock { state in
      state.synchronized = .some(contents)
      state.fileError = nil
      state.lastDuration = duration
      for (key, stored) in written where state.unsynchronized[key]?.value == stored.value {
        state.unsynchronized[key] = nil
      }
      return compare(&state)
    }
  }

  /// The least time between two synchronizations: four times as long as the last one took,
  /// so that a large store is not rewritten most of the time (Foundation blocks every access
  /// to user defaults meanwhile), and at least `interval`.
  func interval(atLeast interval: Duration) -> Duration {
    max(interval, state.withLock(\.lastDuration) * 4)
  }

  // MARK: Others' changes

  /// Whether the store was last synchronized with a file holding `contents`.
  func isSynchronized(to contents: Data?) -> Bool {
    state.withLock { $0.synchronized == .some(contents) }
  }

  /// The store's file cannot be read, for `error`, until it is synchronized: returns the
  /// subscriptions to tell.
  func fileFailed(_ error: any Error) -> [@Sendable () -> Void] {
    state.withLock { state in
      state.fileError = error
      state.synchronized = nil
      return compare(&state)
    }
  }

  /// Compares the value of each subscription whose key the package has no change of to
  /// write with what it last saw: returns those to tell, changed through another store
  /// object of the process.
  func compareUnsynchronizedElsewhere() -> [@Sendable () -> Void] {
    state.withLock { state in
      let unsynchronized = state.unsynchronized
      return compare(&state) { unsynchronized[$1.key] == nil }
    }
  }

  /// Compares the value of subscription `id` with what it last saw: returns it to tell, if
  /// it changed.
  func compare(_ id: Int) -> [@Sendable () -> Void] {
    state.withLock { state in compare(&state) { subscription, _ in subscription == id } }
  }

  /// Compares what each subscription `isIncluded` accepts sees now with what it last saw:
  /// the stored value, or `nil` while the store's file cannot be read.
  private func compare(
    _ state: inout State,
    where isIncluded: (Int, Subscription) -> Bool = { _, _ in true }
  ) -> [@Sendable () -> Void] {
    let fileError = state.fileError
    return see(&state, where: isIncluded) { seen($0, fileError: fileError) }
  }

  private func seen(_ key: String, fileError: (any Error)?) -> StoredDefaultsValue? {
    fileError == nil ? StoredDefaultsValue(store.base.object(forKey: key)) : nil
  }

  /// Records that `key` now holds `value`; returns the subscriptions to tell: those of
  /// another writer that saw something else.
  private func tell(
    _ state: inout State,
    key: String,
    seeing value: StoredDefaultsValue,
    except writer: ObjectIdentifier?
  ) -> [@Sendable () -> Void] {
    see(&state, where: { $1.key == key }, except: writer) { _ in value }
  }

  /// Records what each subscription `isIncluded` accepts sees now, `seen(key)`; returns
  /// those to tell: those that saw something else, and are not of `writer`.
  private func see(
    _ state: inout State,
    where isIncluded: (Int, Subscription) -> Bool,
    except writer: ObjectIdentifier? = nil,
    _ seen: (String) -> StoredDefaultsValue?
  ) -> [@Sendable () -> Void] {
    var changed: [@Sendable () -> Void] = []
    for (id, subscription) in state.subscriptions.sorted(by: { $0.key < $1.key })
    where isIncluded(id, subscription) {
      let value = seen(subscription.key)
      if subscription.writer != writer && value != subscription.lastSeen {
        changed.append(subscription.onChange)
      }
      state.subscriptions[id]?.lastSeen = value
    }
    return changed
  }

  /// Copies what the store holds for `key` to a key of its own, `<key>.corrupt-<UTC
  /// timestamp>`.
  ///
  /// What is stored now is kept, not what was seen at load: a synchronization in between
  /// reloads the store, and a date read back from its property list has lost its fractional
  /// seconds, so it no longer equals what was seen. Keeping a value that another program
  /// already replaced costs a key; skipping one loses it.
  private func keepStoredValue(forKey key: String) {
    guard let object = store.base.object(forKey: key) else { return }
    let date = Date()
    var attempt = 1
    while store.base.object(
      forKey: CorruptFile.preservationName(for: key, at: date, attempt: attempt)
    ) != nil {
      attempt += 1
    }
    ObservedUserDefaults.$isWritingForKey.withValue(true) {
      store.base.set(
        object,
        forKey: CorruptFile.preservationName(for: key, at: date, attempt: attempt)
      )
    }
  }
}
