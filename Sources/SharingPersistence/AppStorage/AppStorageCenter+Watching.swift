import Dispatch
import Foundation
import SharingDependencies

/// How ``AppStorageCenter`` notices changes made outside it: the watch of each store's file,
/// and the tick.
extension AppStorageCenter {
  /// Checks, reloads and compares a store whose file another process may have written.
  func fileMayHaveChanged(_ store: UserDefaultsBox) {
    let notify = state.withLock { state -> [@Sendable () -> Void] in
      guard state.records[store] != nil else { return [] }
      return withRecord(of: store, in: &state) { reloadIfChanged(&$0) }
    }
    for onChange in notify { onChange() }
  }

  /// Checks, reloads and compares the store if its file is not as this process left it;
  /// returns the subscriptions to tell.
  func reloadIfChanged(_ record: inout Record) -> [@Sendable () -> Void] {
    guard let file = record.file else {
      record.store.base.synchronize()
      return reload(&record, tellingAll: false)
    }
    // NB: Stamped before the store is read: a write landing after the stamp changes it (or
    //     lands within the clock's granularity, which the state accounts for).
    let now = FileStamp.now()
    let stamp = file.stamp()
    guard record.state.mustReload(stamp: stamp) else { return [] }
    let wasUnreadable = record.state.fileError != nil
    guard checkFile(of: &record) else {
      return wasUnreadable ? [] : record.state.everySubscription
    }
    record.store.base.synchronize()
    let values = subscribedValues(of: record)
    // NB: Foundation reads the file again for these values: if it changed since it was
    //     checked, the version read may not be a property list (read as an empty store) and
    //     is not played back; the next check looks at it.
    guard file.stamp() == stamp else { return [] }
    record.state.didReadFile(stamp: stamp, stampedAfter: now)
    return record.state.didReload(values, tellingAll: wasUnreadable)
  }

  /// Ticks after ``UserDefaultsStoreState/syncInterval``.
  func scheduleTick() {
    queue.asyncAfter(deadline: .now() + UserDefaultsStoreState.syncInterval.dispatchInterval) {
      [self] in tick()
    }
  }

  /// Notices what the watch missed, and writes what other store objects of this process
  /// changed, for every store with subscriptions; ticks again while there are any.
  func tick() {
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

  /// Keeps aside the bytes of a file Foundation cannot read, before anything rewrites it.
  /// Returns whether the file can be read.
  ///
  /// Called for each new version of the file: each unreadable version is kept.
  @discardableResult
  func checkFile(of record: inout Record) -> Bool {
    guard let file = record.file, let bytes = file.unparseableContents() else {
      record.state.fileError = nil
      return true
    }
    record.state.didFindUnreadable(stamp: file.stamp())
    do {
      record.state.fileError = .unreadableFile(path: file.path, keptAt: try file.keepAside(bytes))
    } catch let error as AppStorageError {
      record.state.fileError = error
    } catch {
      record.state.fileError = .notKept(path: file.path, reason: "\(error)")
    }
    return false
  }
}
