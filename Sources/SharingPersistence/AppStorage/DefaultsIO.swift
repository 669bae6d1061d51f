import Foundation
import SharingCore
import SharingDependencies

/// What a user defaults store does for its ``Record``: reads of its property list, writes by
/// synchronizing the store with it (``DefaultsSynchronizer``), and a watch of it.
///
/// A change is set in the store when it is made, so that the store shows it at once: a write
/// carries no contents, and the record only decides when the store is synchronized. The
/// stamp of the file is its bytes.
struct DefaultsIO: RecordIO {
  let keys: DefaultsKeys
  /// The store's file; `nil` where Foundation keeps stores some other way, which are only
  /// synchronized.
  let file: DefaultsFile?

  func read() throws -> StoredSnapshot<Data> {
    let contents = try file?.contents()
    return StoredSnapshot(stamp: contents ?? Data(), contents: contents)
  }

  /// Synchronizes the store with its file, and tells the keys whose value the file changed,
  /// or that it cannot be read.
  func write(_: Data, keepingAside _: Data?) throws -> Data {
    let (contents, written, work) = try DefaultsSynchronizer.shared.synchronize(keys, file)
    // With nothing to write, Foundation leaves a file it cannot parse as it is.
    if !isUnreadable(.success(contents)) {
      for onChange in keys.synchronized(to: contents, in: work, writing: written) { onChange() }
    }
    return contents ?? Data()
  }

  /// Whether the store cannot be read, given what reading its file found: the read failed,
  /// or the file holds unreadable bytes, which are kept aside (see
  /// ``DefaultsSynchronizer/keepAsideIfUnparseable(_:_:)``), or could not be. The keys are
  /// then told why.
  func isUnreadable(_ read: Result<Data?, any Error>) -> Bool {
    let failure: (any Error)?
    do {
      let bytes = try read.get()
      failure = try file.flatMap {
        try DefaultsSynchronizer.shared.keepAsideIfUnparseable($0, bytes)
      }
    } catch {
      failure = error
    }
    guard let failure else { return false }
    for onChange in keys.fileFailed(failure) { onChange() }
    return true
  }

  /// Watches the file for other processes' changes, and the store for changes made through
  /// its other objects in this process, which Foundation does not tell.
  func watch(_ onChange: @escaping @Sendable (Data?) -> Void) -> any RecordWatch {
    let watch = file.map { DiskFileSystem().watch($0.url) { onChange(nil) } }
    let isStopped = Locked(false)
    poll(after: Self.pollInterval, until: isStopped)
    // NB: Never live, so that no write is skipped as holding what the file holds: every
    //     write carries the same (no) contents.
    return FileWatch(isLive: false) {
      isStopped.withLock { $0 = true }
      watch?.stop()
    }
  }

  /// The least time between two comparisons of the subscribed keys by ``watch(_:)``.
  static let pollInterval = Duration.milliseconds(50)

  /// Compares the subscribed keys of the store with what they saw after `delay`, and again
  /// after each comparison, until `isStopped`: after ``pollInterval``, or four times the
  /// processor time the comparison took, if longer (after a change to the store, Foundation
  /// copies the whole store for the first value read from it). See
  /// ``playChangesElsewhere()``.
  private func poll(after delay: Duration, until isStopped: Locked<Bool>) {
    DispatchWriteScheduler.shared.schedule(after: delay) { [self] in
      guard !isStopped.withLock({ $0 }) else { return }
      let work = playChangesElsewhere()
      poll(after: max(Self.pollInterval, work * 4), until: isStopped)
    }
  }

  /// Tells the keys whose small value was changed through another store object of the
  /// process (`UserDefaults.standard.set(…)`), which Foundation tells nobody, and writes the
  /// store, as it writes the changes made through the package; returns the processor time the
  /// comparison took.
  ///
  /// Only small values are compared: reading a large one takes Foundation long. A large value
  /// changed so is told when the store is next written.
  ///
  /// Foundation reads a file it cannot parse as an empty store, whose keys all seem removed:
  /// a change found while the file is so is told as the file's failure, as its watch tells
  /// it, and nothing is written.
  func playChangesElsewhere() -> Duration {
    let (changed, work) = measuringProcessorTime { keys.compareSmallValuesChangedElsewhere() }
    guard !changed.isEmpty, !isUnreadable(Result { try file?.contents() }) else { return work }
    for onChange in changed { onChange() }
    // Written here rather than by the record, which has no change of its own to write.
    _ = try? write(Data(), keepingAside: nil)
    return work
  }

  /// Why a change was not written: the file could not be read (and Foundation would read it
  /// as an empty store).
  func refusal(cause: (any Error)?) -> any Error {
    AppStorageError.notSaved(
      path: file?.path,
      reason: "it could not be read (\(cause.map { "\($0)" } ?? "unknown error"))"
    )
  }
}
