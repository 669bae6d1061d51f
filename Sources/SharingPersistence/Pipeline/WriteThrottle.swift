import Foundation
import SharingCore

/// A value waiting to be written, encoded only when it is written, and the saves waiting
/// on it.
struct PendingWrite: Sendable {
  var encode: @Sendable () throws -> Data
  var continuations: [SaveContinuation]
}

/// The throttling rules of one file, as a state machine: at most one write per interval,
/// the latest value always written, the first change of a quiet period written at once.
///
/// Part of ``StoredFileState``, which turns what it returns into effects.
struct WriteThrottle {
  /// The least time between two throttled writes, unless a change asks for its own.
  let interval: Duration
  private(set) var pending: PendingWrite?
  private var lastWrite: Duration?
  private var isScheduled = false
  /// The number of the last write taken: writes taken later have greater numbers.
  private(set) var sequence: UInt64 = 0

  init(interval: Duration) {
    self.interval = interval
  }

  /// A write taken from the throttle, numbered so that an older write never lands after a
  /// newer one.
  struct Ticket {
    let write: PendingWrite
    let sequence: UInt64
  }

  /// What adding a change asks for.
  struct Enqueued {
    /// The delay after which ``takeScheduled(now:)`` must be called, or `nil` if a call is
    /// already scheduled.
    var delay: Duration?
    /// The saves of the value the change replaced, which will never be written.
    var superseded: [SaveContinuation] = []
  }

  /// Adds a change, replacing the pending one.
  ///
  /// - Parameter interval: The least time since the last write, if not ``interval``.
  mutating func enqueue(
    _ write: PendingWrite,
    now: Duration,
    interval: Duration? = nil
  ) -> Enqueued {
    // NB: Only the latest value is kept, and only its saves: a burst of changes holds one
    //     value and one continuation, however long the interval.
    var enqueued = Enqueued(superseded: pending?.continuations ?? [])
    pending = write
    guard !isScheduled else { return enqueued }
    isScheduled = true
    enqueued.delay = lastWrite.map { max($0 + (interval ?? self.interval) - now, .zero) } ?? .zero
    return enqueued
  }

  /// Takes the pending write when its scheduled time comes.
  mutating func takeScheduled(now: Duration) -> Ticket? {
    isScheduled = false
    return takePending(now: now)
  }

  /// Takes the pending write, if any, to write it now.
  mutating func takePending(now: Duration) -> Ticket? {
    guard let pending else { return nil }
    self.pending = nil
    return ticket(for: pending, now: now)
  }

  /// Takes a write that must happen now; it supersedes the pending one, whose waiters it
  /// takes over.
  mutating func takeImmediate(_ write: PendingWrite, now: Duration) -> Ticket {
    var write = write
    if let pending {
      write.continuations = pending.continuations + write.continuations
      self.pending = nil
    }
    return ticket(for: write, now: now)
  }

  /// Drops the pending write, because the file changed under it; returns its waiters.
  mutating func discardPending() -> [SaveContinuation] {
    defer { pending = nil }
    return pending?.continuations ?? []
  }

  private mutating func ticket(for write: PendingWrite, now: Duration) -> Ticket {
    lastWrite = now
    sequence += 1
    return Ticket(write: write, sequence: sequence)
  }
}
