import Dispatch
import SharingCore
import SharingDependencies

/// Files with a write pending or in progress, flushed all at once by
/// ``flushPendingWrites()`` and when the process exits normally.
///
/// A file stays here until its write lands, so a value changed through a shared value that
/// was released before the throttle fired is still written.
package final class PendingFiles: Sendable {
  /// The files of every ``FileStorage`` on the real file system; each virtual one has a set
  /// of its own.
  static let shared: PendingFiles = {
    let files = PendingFiles()
    ExitFlush.register { files.flushAndWait(timeout: .seconds(5)) }
    return files
  }()

  private let files = Registry<ObjectIdentifier, StoredFile>()

  /// Creates an empty set, flushed only when asked: for tests that flush without touching
  /// other tests' files.
  package init() {}

  func insert(_ file: StoredFile) {
    files.insert(file, for: ObjectIdentifier(file))
  }

  func remove(_ file: StoredFile) {
    files.remove(ObjectIdentifier(file), ifIdenticalTo: file)
  }

  /// Writes every pending value now, on the calling thread, and calls `done` once every
  /// write pending or in progress at the time of the call has finished.
  package func flush(_ done: @escaping @Sendable () -> Void) {
    Self.flush(files.all, done)
  }

  /// Writes every pending value now and waits for the writes in progress, at most for
  /// `timeout` when given.
  package func flushAndWait(timeout: Duration? = nil) {
    Self.flushAndWait(files.all, timeout: timeout)
  }

  /// Writes the pending values of `files` now, on the calling thread, and calls `done` once
  /// every write of theirs pending or in progress at the time of the call has finished.
  static func flush(_ files: [StoredFile], _ done: @escaping @Sendable () -> Void) {
    guard !files.isEmpty else { return done() }
    let remaining = Locked(files.count)
    for file in files {
      file.flush {
        let isLast = remaining.withLock { remaining in
          remaining -= 1
          return remaining == 0
        }
        if isLast { done() }
      }
    }
  }

  /// Writes the pending values of `files` now and waits for their writes in progress, at
  /// most for `timeout` when given.
  static func flushAndWait(_ files: [StoredFile], timeout: Duration? = nil) {
    let finished = DispatchSemaphore(value: 0)
    flush(files) { finished.signal() }
    guard let timeout else { return finished.wait() }
    _ = finished.wait(timeout: .now() + timeout.dispatchInterval)
  }
}
