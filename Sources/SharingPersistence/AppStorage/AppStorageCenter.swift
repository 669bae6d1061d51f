import Dispatch
import Foundation
import SharingCore
import SharingDependencies

/// Reads, writes and watches user defaults for every ``AppStorageKey`` in the process: the
/// executor of each store's ``UserDefaultsStoreState``.
///
/// On Linux, Foundation posts no `UserDefaults.didChangeNotification`, supports no key-value
/// observing, and writes a store's property list only when `synchronize()` is called. So:
///
/// - A write through a key, or through a store the package hands out
///   (``ObservedUserDefaults``), tells the key's other subscriptions before it returns.
/// - The store's file is watched (``FileWatcher``): when another process writes it, the
///   file is checked, reloaded and the subscribed keys compared, costing time only then.
///   A stamp tells that a file changed, never that it did not: the file is also read once
///   after each write of this process (another may have written right after it) and while
///   it was modified within one tick of the file system's clock
///   (``UserDefaultsStoreState/mustReload(stamp:)``).
///   A file that is no longer a property list is copied aside before anything rewrites it.
/// - While any key is subscribed, a tick every ``UserDefaultsStoreState/syncInterval``
///   synchronises the stores with nothing to write (which costs a `stat` when nothing
///   changed): it writes changes other store objects of this process made, whose file
///   change is then seen, and notices changes the watch missed.
/// - Changes reach the file as ``UserDefaultsStoreState`` decides, and at exit.
///
/// Every access to a store happens under the center's lock: on Linux, a write racing a
/// `synchronize()` of the same store can be lost when it reloads the property list.
final class AppStorageCenter: Sendable {
  static let shared = AppStorageCenter()

  struct Record {
    let store: UserDefaultsBox
    let file: DefaultsFile?
    var state = UserDefaultsStoreState()
    var stopWatching: (@Sendable () -> Void)?
  }

  struct State {
    var nextID = 0
    var records: [UserDefaultsBox: Record] = [:]
    var isTicking = false
  }

  /// Work found under the lock, performed after unlocking.
  struct Effects {
    var notify: [@Sendable () -> Void] = []
    var resume: [(SaveContinuation, Result<Void, any Error>)] = []
    var scheduleSync: [(UserDefaultsBox, Duration)] = []

    func perform(in center: AppStorageCenter) {
      for (store, delay) in scheduleSync { center.scheduleSync(of: store, after: delay) }
      for onChange in notify { onChange() }
      for (continuation, result) in resume { continuation.resume(with: result) }
    }
  }

  let state = Locked(State())
  let queue = DispatchQueue(label: "Sharing.AppStorage")

  private init() {
    ExitFlush.register { [self] in synchronizeUnsavedStores() }
  }

  static func now() -> Duration {
    .nanoseconds(DispatchTime.now().uptimeNanoseconds)
  }

  // MARK: Keys

  /// Calls `onChange` whenever the value for `key` changes by any means other than a write
  /// made through ``write(_:forKey:in:by:saving:urgency:)`` by the same `writer`, or the
  /// store's file cannot be read.
  func subscribe(
    key: String,
    in store: UserDefaultsBox,
    writer: ObjectIdentifier,
    onChange: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    let (id, startsTicking) = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      withRecord(of: store, in: &state) { record in
        record.state.subscribe(
          id,
          .init(
            key: key,
            writer: writer,
            lastSeen: StoredDefaultsValue(store.base.object(forKey: key)),
            onChange: onChange
          )
        )
        if record.stopWatching == nil, let file = record.file {
          record.stopWatching =
            FileWatcher.shared.watch(path: file.path) { [self] in
              fileMayHaveChanged(store)
            }.stop
        }
      }
      defer { state.isTicking = true }
      return (id, !state.isTicking)
    }
    if startsTicking { scheduleTick() }
    return { [self] in
      state.withLock { state in
        withRecord(of: store, in: &state) { $0.state.unsubscribe(id) }
      }
    }
  }

  /// The object stored for a key, or why the store cannot be read.
  func object(forKey key: String, in store: UserDefaultsBox) -> Result<Any?, any Error> {
    state.withLock { state in
      withRecord(of: store, in: &state) { record in
        if let error = record.state.fileError { return .failure(error) }
        return .success(store.base.object(forKey: key))
      }
    }
  }

  /// Stores a property list value (or removes the key, for `nil`), tells the other
  /// subscriptions to the key, and resumes `continuation` once the change is on disk.
  func write(
    _ object: Any?,
    forKey key: String,
    in store: UserDefaultsBox,
    by writer: ObjectIdentifier,
    saving continuation: SaveContinuation? = nil,
    urgency: UserDefaultsStoreState.Urgency
  ) {
    let effects = state.withLock { state in
      withRecord(of: store, in: &state) { record in
        keepUnreadableValue(forKey: key, in: &record)
        ObservedUserDefaults.$isWritingForKey.withValue(true) {
          if let object {
            forgetCopy(ofKey: key, in: record)
            store.base.set(object, forKey: key)
          } else {
            // NB: Not 'set(nil, forKey:)': on Linux it resolves to the 'URL?' overload,
            //     which never returns.
            store.base.removeObject(forKey: key)
          }
        }
        var effects = Effects()
        effects.notify += record.state.didStore(
          StoredDefaultsValue(object),
          forKey: key,
          by: writer
        )
        // NB: Until a removal is synchronised, Linux reads the key from the file on disk.
        let step = record.state.changed(
          saving: continuation,
          urgency: object == nil ? .immediate : urgency,
          now: Self.now()
        )
        apply(step, to: &record, effects: &effects)
        return effects
      }
    }
    effects.perform(in: self)
  }

  /// Makes a change directly through an ``ObservedUserDefaults`` store (`change`), tells
  /// the subscriptions to the key before returning, and writes the store to disk soon.
  ///
  /// The change is made under the lock, like every access the center makes: a `set` racing a
  /// synchronisation of the same store can be lost on Linux.
  func change(
    _ store: UserDefaultsBox,
    forKey key: String,
    isRemoval: Bool,
    by change: () -> Void
  ) {
    let effects = state.withLock { state -> Effects in
      // NB: Recorded even when no key uses the store, so that it is still written to disk
      //     soon and at exit.
      ObservedUserDefaults.$isWritingForKey.withValue(true) {
        if !isRemoval, let record = state.records[store] { forgetCopy(ofKey: key, in: record) }
        change()
      }
      return withRecord(of: store, in: &state) { record in
        var effects = Effects()
        let step = record.state.changed(
          saving: nil,
          urgency: isRemoval ? .immediate : .background,
          now: Self.now()
        )
        apply(step, to: &record, effects: &effects)
        effects.notify += record.state.didStore(
          StoredDefaultsValue(store.base.object(forKey: key)),
          forKey: key,
          by: nil
        )
        return effects
      }
    }
    effects.perform(in: self)
  }

  /// Marks the object stored for a key as unreadable: when the key is next written, what it
  /// stores then is first copied to `<key>.corrupt-<UTC timestamp>`.
  func keepBeforeNextWrite(forKey key: String, in store: UserDefaultsBox) {
    state.withLock { state in
      withRecord(of: store, in: &state) { _ = $0.state.unreadableKeys.insert(key) }
    }
  }

  // MARK: Records

  /// Runs `body` on the record of `store`, creating it first if needed (checking the file
  /// before anything can write it), and drops it afterwards if it has become idle.
  func withRecord<R>(
    of store: UserDefaultsBox,
    in state: inout State,
    _ body: (inout Record) -> R
  ) -> R {
    var record = state.records[store] ?? open(store)
    let result = body(&record)
    if record.state.isIdle {
      record.stopWatching?()
      state.records[store] = nil
    } else {
      state.records[store] = record
    }
    return result
  }

  func open(_ store: UserDefaultsBox) -> Record {
    // NB: Nothing is known of the file yet: Foundation may hold a copy read before it last
    //     changed. The first check reloads the store.
    var record = Record(store: store, file: DefaultsFile.of(store.base))
    checkFile(of: &record)
    return record
  }

  /// Removes a key from Foundation's copy of a store whose file cannot be read, so that the
  /// value set next is written even if it equals that copy.
  ///
  /// Foundation ignores a value equal to its copy, which may have been read before the file
  /// became unreadable, and its synchronisation then writes nothing: the file would keep its
  /// unreadable bytes while the save succeeded. Call with ``ObservedUserDefaults`` writing.
  func forgetCopy(ofKey key: String, in record: Record) {
    guard record.state.fileError != nil else { return }
    record.store.base.removeObject(forKey: key)
  }

  func keepUnreadableValue(forKey key: String, in record: inout Record) {
    // NB: What is stored now is kept, not what was seen at load: a synchronisation in
    //     between reloads the store, and a date read back from its property list has lost
    //     its fractional seconds, so it no longer equals what was seen. Keeping a value that
    //     another program already replaced costs a key; skipping one loses it.
    guard
      record.state.unreadableKeys.remove(key) != nil,
      let object = record.store.base.object(forKey: key)
    else { return }
    let date = Date()
    var attempt = 1
    while record.store.base.object(
      forKey: CorruptFile.preservationName(for: key, at: date, attempt: attempt)
    ) != nil {
      attempt += 1
    }
    ObservedUserDefaults.$isWritingForKey.withValue(true) {
      record.store.base.set(
        object,
        forKey: CorruptFile.preservationName(for: key, at: date, attempt: attempt)
      )
    }
  }

}
