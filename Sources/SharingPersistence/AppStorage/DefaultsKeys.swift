import Foundation
import SharingDependencies

/// The keys of one user defaults store that the shared values of this process use, and every
/// access the package makes to the store: what each subscription last saw, so that it hears
/// of each change once, and never of its own write.
///
/// Each access is made under one lock, so that a subscription compares a value with what it
/// saw while nothing else changes either. A value is read from Foundation only when it may
/// have changed: handing one over takes Foundation half a second per megabyte.
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
    /// The hash of each value in the file then, if its format tells them.
    var fingerprints: [String: Int]?
    /// The keys changed in the store since it was last synchronized, and whether each was
    /// removed: the store holds the rest as the file did.
    var changed: [String: Bool] = [:]
    /// The changed keys that hold the default value a load stored because they had none,
    /// and that value: each is written only if the file still has no value for it.
    var defaults: [String: StoredDefaultsValue] = [:]
    /// The processor time the last synchronization took.
    var lastWork = Duration.zero
  }

  let store: UserDefaultsBox
  private let state = Locked(State())

  init(store: UserDefaultsBox) {
    self.store = store
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

  /// The subscriptions of `writer` to `key`.
  func subscriptions(to key: String, of writer: ObjectIdentifier) -> [@Sendable () -> Void] {
    state.withLock { state in
      state.subscriptions.values.filter { $0.key == key && $0.writer == writer }.map(\.onChange)
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

  /// Stores `object` as the default value of `key` through `writer`, unless the key has a
  /// value by now; returns the value found if it has one, and the other subscriptions to
  /// tell.
  ///
  /// The default is written to the file only if the file still has no value for the key
  /// then (see ``changesToWrite(over:)``).
  func storeDefault(
    _ object: Any,
    forKey key: String,
    by writer: ObjectIdentifier
  ) -> (found: Any?, changed: [@Sendable () -> Void]) {
    state.withLock { state in
      if let found = store.base.object(forKey: key) { return (found, []) }
      ObservedUserDefaults.$isWritingForKey.withValue(true) { store.base.set(object, forKey: key) }
      state.changed[key] = false
      let value = StoredDefaultsValue(object)
      state.defaults[key] = value
      return (nil, see(&state, except: writer, value) { $0.key == key })
    }
  }

  /// Stores a property list value (or removes the key, for `nil`) through `writer` (`nil`:
  /// directly through the store); returns the other subscriptions to tell. A key's write
  /// first keeps aside what it stored if that could not be read (see
  /// ``keepBeforeNextWrite(forKey:)``).
  ///
  /// The key is removed first: Foundation writes only the keys it saw change, and would not
  /// write a value its copy of the store held already, which the file may not hold.
  func store(
    _ object: Any?,
    forKey key: String,
    by writer: ObjectIdentifier? = nil
  ) -> [@Sendable () -> Void] {
    state.withLock { state in
      if writer != nil, state.unreadableKeys.remove(key) != nil { keepStoredValue(forKey: key) }
      ObservedUserDefaults.$isWritingForKey.withValue(true) {
        // NB: Not 'set(nil, forKey:)': on Linux it resolves to the 'URL?' overload, which
        //     never returns.
        store.base.removeObject(forKey: key)
        if let object { store.base.set(object, forKey: key) }
      }
      state.changed[key] = object == nil
      state.defaults[key] = nil
      // NB: Until a removal is synchronized, Foundation on Linux reads the key from the file;
      //     a value set directly is read back, as Foundation may store another type for it.
      let value =
        writer == nil && object != nil
        ? StoredDefaultsValue(store.base.object(forKey: key)) : StoredDefaultsValue(object)
      return see(&state, except: writer, value) { $0.key == key }
    }
  }

  /// Marks the object stored for a key as unreadable: when the key is next written, what it
  /// stores then is first copied to `<key>.corrupt-<UTC timestamp>`.
  func keepBeforeNextWrite(forKey key: String) {
    state.withLock { _ = $0.unreadableKeys.insert(key) }
  }

  // MARK: Synchronizing

  /// The keys changed in the store since it was last synchronized, which a synchronization
  /// with a file holding `contents` writes next, and whether each is a removal.
  ///
  /// A default value stored for a key the file now has a value for (another process stored
  /// it since) is taken back first: the store is handed the file's value, which the
  /// synchronization then keeps, and the key's subscriptions hear of it once it is
  /// ``synchronized(to:in:writing:)``. A default the store no longer holds was changed
  /// through another store object of the process: that change is written.
  func changesToWrite(over contents: Data?) -> [String: Bool] {
    state.withLock { state in
      guard !state.defaults.isEmpty, let contents,
        let stored = PropertyListBytes.parsed(contents) as? [String: Any]
      else { return state.changed }
      for (key, defaultValue) in state.defaults {
        guard let value = stored[key] else { continue }
        state.defaults[key] = nil
        guard StoredDefaultsValue(store.base.object(forKey: key)) == defaultValue else {
          continue
        }
        ObservedUserDefaults.$isWritingForKey.withValue(true) {
          store.base.set(value, forKey: key)
        }
        state.changed[key] = nil
      }
      return state.changed
    }
  }

  /// The store was synchronized with its file, in `work` of processor time, and the file
  /// holds `contents` (`nil`: none), with the changes `written` (unless made again since).
  /// Returns the subscriptions whose value changed, or which saw the file unreadable.
  ///
  /// Only the keys whose bytes in the file changed are read, unless the file's format does
  /// not tell.
  func synchronized(
    to contents: Data?,
    in work: Duration = .zero,
    writing written: [String: Bool] = [:]
  ) -> [@Sendable () -> Void] {
    let fingerprints = contents.map(PropertyListKeys.fingerprints(of:)) ?? [:]
    return state.withLock { state in
      let old = state.fileError == nil ? state.fingerprints : nil
      (state.synchronized, state.fingerprints) = (.some(contents), fingerprints)
      (state.fileError, state.lastWork) = (nil, work)
      for (key, isRemoval) in written where state.changed[key] == isRemoval {
        state.changed[key] = nil
        state.defaults[key] = nil
      }
      return see(&state) { subscription in
        guard let old, let fingerprints else { return true }
        let key = subscription.key
        return written[key] == nil && old[key] != fingerprints[key]
      }
    }
  }

  /// The least time between two synchronizations: four times the processor time the last
  /// one took, so that a large store is not rewritten most of the time (Foundation blocks
  /// every access to user defaults meanwhile), and at least `interval`. Processor time, as a
  /// busy machine or a slow disk lengthen a synchronization of a small store too: the
  /// interval would then hold back the next one, and with it the playback of others' changes,
  /// by seconds.
  func interval(atLeast interval: Duration) -> Duration {
    max(interval, state.withLock(\.lastWork) * 4)
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
      (state.fileError, state.synchronized) = (error, nil)
      return see(&state)
    }
  }

  /// Compares the small value of each subscription with what it last saw, unless the
  /// package has changes of the store to write (whose write compares what changed): returns
  /// those to tell, changed through another store object of the process.
  func compareSmallValuesChangedElsewhere() -> [@Sendable () -> Void] {
    state.withLock { state in
      guard state.changed.isEmpty else { return [] }
      return see(&state) { $0.lastSeen?.isSmall != false }
    }
  }

  private func seen(_ key: String, fileError: (any Error)?) -> StoredDefaultsValue? {
    fileError == nil ? StoredDefaultsValue(store.base.object(forKey: key)) : nil
  }

  /// Records what each subscription `isIncluded` accepts sees now: `value`, or by default
  /// the stored value (`nil` while the store's file cannot be read); returns those to tell:
  /// those that saw something else, and are not of `writer`.
  private func see(
    _ state: inout State,
    except writer: ObjectIdentifier? = nil,
    _ value: StoredDefaultsValue? = nil,
    where isIncluded: (Subscription) -> Bool = { _ in true }
  ) -> [@Sendable () -> Void] {
    var changed: [@Sendable () -> Void] = []
    let fileError = state.fileError
    for (id, subscription) in state.subscriptions.sorted(by: { $0.key < $1.key })
    where isIncluded(subscription) {
      let value = value ?? seen(subscription.key, fileError: fileError)
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
    let name = CorruptFile.preservationName(for: key) { store.base.object(forKey: $0) == nil }
    ObservedUserDefaults.$isWritingForKey.withValue(true) { store.base.set(object, forKey: name) }
  }
}
