import Dispatch
import SharingDependencies

/// A record that writes what it holds pending when asked.
package protocol FlushableRecord: AnyObject, Sendable {
  /// Whether no write is pending, under way, or failed.
  var isIdle: Bool { get }

  /// Writes the pending value now, on the calling thread, and calls `done` once every write
  /// taken until then has ended.
  func flush(_ done: @escaping @Sendable () -> Void)
}

/// The records with a write pending, under way or failed — files, rows, user defaults
/// stores — written all at once by ``flushPendingWrites()`` and when the process exits
/// normally.
///
/// A record stays here until its write lands, so a value changed through a shared value that
/// was released before its write was made is still written.
package final class PendingWrites: Sendable {
  /// The records of real stores: flushed by ``flushPendingWrites()`` and at exit. Each
  /// virtual store (a test's) has a set of its own.
  package static let shared: PendingWrites = {
    let records = PendingWrites()
    ExitFlush.register { records.flushAndWait(timeout: .seconds(5)) }
    return records
  }()

  private let records = Locked<[ObjectIdentifier: any FlushableRecord]>([:])

  /// Creates an empty set, flushed only when asked.
  package init() {}

  /// Adds `record` if it has a write pending, and removes it if not.
  ///
  /// A record's registration and unregistration are made after its lock is released, so
  /// two threads' can arrive in either order: what the record has pending when each arrives
  /// decides.
  func update(_ record: some FlushableRecord) {
    records.withLock { records in
      records[ObjectIdentifier(record)] = record.isIdle ? nil : record
    }
  }

  /// Writes every pending value now, on the calling thread, and calls `done` once every
  /// write pending or under way at the time of the call has ended.
  package func flush(_ done: @escaping @Sendable () -> Void) {
    Self.flush(records.withLock { Array($0.values) }, done)
  }

  /// Writes every pending value now and waits for the writes under way, at most for
  /// `timeout` when given.
  package func flushAndWait(timeout: Duration? = nil) {
    Self.flushAndWait(records.withLock { Array($0.values) }, timeout: timeout)
  }

  /// Writes the pending values of `records` now, on the calling thread, and calls `done`
  /// once every write of theirs pending or under way at the time of the call has ended.
  static func flush(_ records: [any FlushableRecord], _ done: @escaping @Sendable () -> Void) {
    guard !records.isEmpty else { return done() }
    let remaining = Locked(records.count)
    for record in records {
      record.flush {
        let isLast = remaining.withLock { remaining in
          remaining -= 1
          return remaining == 0
        }
        if isLast { done() }
      }
    }
  }

  /// Writes the pending values of `records` now and waits for their writes under way, at
  /// most for `timeout` when given.
  static func flushAndWait(_ records: [any FlushableRecord], timeout: Duration? = nil) {
    let finished = DispatchSemaphore(value: 0)
    flush(records) { finished.signal() }
    guard let timeout else { return finished.wait() }
    _ = finished.wait(timeout: .now() + timeout.dispatchInterval)
  }
}
