import Foundation
import SharingCore

/// A value waiting to be written: the latest value, encoded only when it is written, and
/// every save waiting on it.
struct PendingWrite: Sendable {
  var encode: @Sendable () throws -> Data
  var continuations: [SaveContinuation]

  /// Replaces the value with a newer one; everyone waiting on the older one waits on it too.
  mutating func merge(_ newer: PendingWrite) {
    encode = newer.encode
    continuations += newer.continuations
  }
}

/// The throttling rules of one file, as a state machine: at most one write per interval,
/// the latest value always written, the first change of a quiet period written at once.
///
/// It decides; ``StoredFile`` performs what it returns, outside its lock.
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

  /// Adds a change; returns the delay after which ``takeScheduled(now:)`` must be called, or
  /// `nil` if a call is already scheduled.
  ///
  /// - Parameter interval: The least time since the last write, if not ``interval``.
  mutating func enqueue(
    _ write: PendingWrite,
    now: Duration,
    interval: Duration? = nil
  ) -> Duration? {
    if pending == nil {
      pending = write
    } else {
      pending?.merge(write)
    }
    guard !isScheduled else { return nil }
    isScheduled = true
    guard let lastWrite else { return .zero }
    return max(lastWrite + (interval ?? self.interval) - now, .zero)
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
