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

  private struct Record {
    let store: UserDefaultsBox
    let file: DefaultsFile?
    var state = UserDefaultsStoreState()
    var stopWatching: (@Sendable () -> Void)?
  }

  private struct State {
    var nextID = 0
    var records: [UserDefaultsBox: Record] = [:]
    var isTicking = false
  }

  /// Work found under the lock, performed after unlocking.
  private struct Effects {
    var notify: [@Sendable () -> Void] = []
    var resume: [(SaveContinuation, Result<Void, any Error>)] = []
    var scheduleSync: [(UserDefaultsBox, Duration)] = []

    func perform(in center: AppStorageCenter) {
      for (store, delay) in scheduleSync { center.scheduleSync(of: store, after: delay) }
      for onChange in notify { onChange() }
      for (continuation, result) in resume { continuation.resume(with: result) }
    }
  }

  private let state = Locked(State())
  private let queue = DispatchQueue(label: "Sharing.AppStorage")

  private init() {
    ExitFlush.register { [self] in synchronizeUnsavedStores() }
  }

  private static func now() -> Duration {
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
          record.stopWatching = FileWatcher.shared.watch(path: file.path) { [self] in
            fileMayHaveChanged(store)
          }
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

  /// Makes a change directly through an ``ObservedUserDefaults`` store (`change`), and tells
  /// the subscriptions to the key before returning.
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
      ObservedUserDefaults.$isWritingForKey.withValue(true, operation: change)
      guard state.records[store] != nil else { return Effects() }
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

  /// Writes a store's changes to disk now, then resumes `continuation` with the outcome.
  func synchronize(_ store: UserDefaultsBox, saving continuation: SaveContinuation) {
    let effects = state.withLock { state in
      withRecord(of: store, in: &state) { record in
        var effects = Effects()
        let step = record.state.changed(saving: continuation, urgency: .immediate, now: Self.now())
        apply(step, to: &record, effects: &effects)
        return effects
      }
    }
    effects.perform(in: self)
  }

  /// Writes every store with changes made through a key to disk now.
  func synchronizeUnsavedStores() {
    let effects = state.withLock { state in
      var effects = Effects()
      for store in state.records.keys {
        withRecord(of: store, in: &state) { record in
          guard let waiting = record.state.takeUnsaved(now: Self.now()) else { return }
          synchronize(&record, resuming: waiting, effects: &effects)
        }
      }
      return effects
    }
    effects.perform(in: self)
  }

  // MARK: Records

  /// Runs `body` on the record of `store`, creating it first if needed (checking the file
  /// before anything can write it), and drops it afterwards if it has become idle.
  private func withRecord<R>(
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

  private func open(_ store: UserDefaultsBox) -> Record {
    var record = Record(store: store, file: DefaultsFile.of(store.base))
    record.state.knownStamp = record.file?.stamp()
    checkFile(of: &record)
    return record
  }

  /// Keeps aside the bytes of a file Foundation cannot read, before anything rewrites it.
  /// Returns whether the file can be read.
  @discardableResult
  private func checkFile(of record: inout Record) -> Bool {
    guard let file = record.file, let bytes = file.unparseableContents() else {
      record.state.fileError = nil
      return true
    }
    if case .unreadableFile = record.state.fileError { return false }
    do {
      record.state.fileError = .unreadableFile(path: file.path, keptAt: try file.keepAside(bytes))
    } catch let error as AppStorageError {
      record.state.fileError = error
    } catch {
      record.state.fileError = .notKept(path: file.path, reason: "\(error)")
    }
    return false
  }

  private func keepUnreadableValue(forKey key: String, in record: inout Record) {
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

  // MARK: Synchronising

  private func apply(
    _ step: UserDefaultsStoreState.SaveStep,
    to record: inout Record,
    effects: inout Effects
  ) {
    switch step {
    case .synchronize(let waiting):
      synchronize(&record, resuming: waiting, effects: &effects)
    case .wait(let delay?):
      effects.scheduleSync.append((record.store, delay))
    case .wait(nil):
      break
    }
  }

  /// Writes the store to its file (unless its unreadable bytes could not be kept aside),
  /// and plays back what another process changed in the file meanwhile.
  private func synchronize(
    _ record: inout Record,
    resuming waiting: [SaveContinuation],
    effects: inout Effects
  ) {
    let result: Result<Void, any Error>
    let changedElsewhere = record.file?.stamp() != record.state.knownStamp
    let wasUnreadable = record.state.fileError != nil
    if changedElsewhere, !checkFile(of: &record), !wasUnreadable {
      effects.notify += record.state.everySubscription
    }
    if record.state.blocksWrites, let error = record.state.fileError {
      result = .failure(error)
    } else {
      let stampBefore = record.file?.stamp()
      let synchronized = record.store.base.synchronize()
      if let reason = failure(of: record, synchronized: synchronized, stampBefore: stampBefore) {
        result = .failure(AppStorageError.notSaved(path: record.file?.path, reason: reason))
      } else {
        result = .success(())
        record.state.fileError = nil
        record.state.knownStamp = record.file?.stamp()
        if changedElsewhere || wasUnreadable {
          effects.notify += reload(&record, tellingAll: wasUnreadable)
        }
      }
    }
    record.state.didSynchronize(succeeded: (try? result.get()) != nil)
    effects.resume += waiting.map { ($0, result) }
  }

  /// Why a synchronisation did not write the store, or `nil` if it did.
  ///
  /// Foundation's result covers every store of the process: it fails while any store
  /// cannot be written. Whether this one was is told by its own file.
  private func failure(
    of record: Record,
    synchronized: Bool,
    stampBefore: DefaultsFile.Stamp?
  ) -> String? {
    guard !synchronized else { return nil }
    guard let file = record.file else { return "Foundation could not write it" }
    guard file.stamp() == stampBefore else { return nil }
    return file.reasonItCannotBeWritten()
  }

  /// Reads every subscribed key after a reload; returns the subscriptions to tell.
  private func reload(_ record: inout Record, tellingAll: Bool) -> [@Sendable () -> Void] {
    let store = record.store.base
    var byKey: [String: StoredDefaultsValue] = [:]
    let values = record.state.subscriptions.mapValues { subscription in
      if let value = byKey[subscription.key] { return value }
      let value = StoredDefaultsValue(store.object(forKey: subscription.key))
      byKey[subscription.key] = value
      return value
    }
    return record.state.didReload(values, tellingAll: tellingAll)
  }

  private func scheduleSync(of store: UserDefaultsBox, after delay: Duration) {
    let nanoseconds =
      Int(delay.components.seconds) * 1_000_000_000
      + Int(delay.components.attoseconds / 1_000_000_000)
    queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
      let effects = state.withLock { state -> Effects in
        guard state.records[store] != nil else { return Effects() }
        return withRecord(of: store, in: &state) { record in
          var effects = Effects()
          if let waiting = record.state.takeScheduledSync(now: Self.now()) {
            synchronize(&record, resuming: waiting, effects: &effects)
          }
          return effects
        }
      }
      effects.perform(in: self)
    }
  }

  // MARK: Watching

  /// Checks, reloads and compares a store whose file another process may have written.
  private func fileMayHaveChanged(_ store: UserDefaultsBox) {
    let notify = state.withLock { state -> [@Sendable () -> Void] in
      guard state.records[store] != nil else { return [] }
      return withRecord(of: store, in: &state) { reloadIfChanged(&$0) }
    }
    for onChange in notify { onChange() }
  }

  private func reloadIfChanged(_ record: inout Record) -> [@Sendable () -> Void] {
    guard let file = record.file else {
      record.store.base.synchronize()
      return reload(&record, tellingAll: false)
    }
    let stamp = file.stamp()
    guard stamp != record.state.knownStamp else { return [] }
    let wasUnreadable = record.state.fileError != nil
    guard checkFile(of: &record) else {
      record.state.knownStamp = stamp
      return wasUnreadable ? [] : record.state.everySubscription
    }
    record.store.base.synchronize()
    record.state.knownStamp = file.stamp()
    return reload(&record, tellingAll: wasUnreadable)
  }

  private func scheduleTick() {
    queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [self] in tick() }
  }

  private func tick() {
    let (notify, continues) = state.withLock { state in
      var notify: [@Sendable () -> Void] = []
      for (store, record) in state.records where !record.state.subscriptions.isEmpty {
        notify += withRecord(of: store, in: &state) { record in
          let changed = reloadIfChanged(&record)
          guard
            changed.isEmpty, !record.state.hasUnsavedChanges, record.state.fileError == nil,
            record.file != nil
          else { return changed }
          // NB: Writes what other store objects of this process changed; seen as a change.
          record.store.base.synchronize()
          return reloadIfChanged(&record)
        }
      }
      state.isTicking = state.records.values.contains { !$0.state.subscriptions.isEmpty }
      return (notify, state.isTicking)
    }
    for onChange in notify { onChange() }
    if continues { scheduleTick() }
  }
}
