import Dispatch
import Foundation
import SharingCore
import SharingDependencies

/// How ``AppStorageCenter`` writes stores to their files, as ``UserDefaultsStoreState``
/// decides.
extension AppStorageCenter {
  /// Performs a save step: synchronises now, or schedules a synchronisation.
  func apply(
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
  func synchronize(
    _ record: inout Record,
    resuming waiting: [SaveContinuation],
    effects: inout Effects
  ) {
    let result: Result<Void, any Error>
    let mayHaveChangedElsewhere =
      record.file.map { record.state.mustReload(stamp: $0.stamp()) } ?? false
    let wasUnreadable = record.state.fileError != nil
    if mayHaveChangedElsewhere, !checkFile(of: &record), !wasUnreadable {
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
        record.state.didWriteFile()
        if mayHaveChangedElsewhere || wasUnreadable {
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
  func failure(
    of record: Record,
    synchronized: Bool,
    stampBefore: FileStamp?
  ) -> String? {
    guard !synchronized else { return nil }
    guard let file = record.file else { return "Foundation could not write it" }
    guard file.stamp() == stampBefore else { return nil }
    return file.reasonItCannotBeWritten()
  }

  /// Reads every subscribed key after a reload; returns the subscriptions to tell.
  func reload(_ record: inout Record, tellingAll: Bool) -> [@Sendable () -> Void] {
    record.state.didReload(subscribedValues(of: record), tellingAll: tellingAll)
  }

  /// The value stored for each subscription's key, by subscription.
  func subscribedValues(of record: Record) -> [Int: StoredDefaultsValue] {
    let store = record.store.base
    var byKey: [String: StoredDefaultsValue] = [:]
    return record.state.subscriptions.mapValues { subscription in
      if let value = byKey[subscription.key] { return value }
      let value = StoredDefaultsValue(store.object(forKey: subscription.key))
      byKey[subscription.key] = value
      return value
    }
  }

  /// Synchronises the store after `delay`, if it still has changes to write then.
  func scheduleSync(of store: UserDefaultsBox, after delay: Duration) {
    queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [self] in
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
}
