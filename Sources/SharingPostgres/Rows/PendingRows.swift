import Dispatch
import SharingDependencies

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rows of one database with a write pending or under way, written by
/// ``PostgresDatabase/flushPendingWrites()`` and, for a real server, when the process exits
/// normally.
final class PendingRows: Sendable {
  private let rows = Locked<[ObjectIdentifier: SharedRow]>([:])

  /// The sets flushed at exit.
  private static let flushedAtExit: Locked<[PendingRows]> = {
    atexit {
      for rows in PendingRows.flushedAtExit.withLock({ $0 }) {
        rows.flushAndWait(timeout: .seconds(5))
      }
    }
    return Locked([])
  }()

  /// Creates an empty set, flushed at normal exit if `flushesAtExit`.
  init(flushesAtExit: Bool) {
    if flushesAtExit { Self.flushedAtExit.withLock { $0.append(self) } }
  }

  func insert(_ row: SharedRow) {
    rows.withLock { $0[ObjectIdentifier(row)] = row }
  }

  func remove(_ row: SharedRow) {
    rows.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(row)) }
  }

  /// Writes every pending value, on the calling thread, and waits for the writes under way,
  /// at most for `timeout` when given.
  func flushAndWait(timeout: Duration? = nil) {
    let rows = rows.withLock { Array($0.values) }
    let finished = DispatchSemaphore(value: 0)
    for row in rows { row.flush { finished.signal() } }
    let deadline = timeout.map { DispatchTime.now() + .nanoseconds(Int($0 / .nanoseconds(1))) }
    for _ in rows {
      guard let deadline else {
        finished.wait()
        continue
      }
      if finished.wait(timeout: deadline) == .timedOut { return }
    }
  }
}
