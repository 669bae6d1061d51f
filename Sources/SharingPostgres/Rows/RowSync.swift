import Foundation
import SharingCore
import SharingPersistence

/// The rules that keep one key's shared values and its row in step, as a state machine: it
/// decides, ``SharedRow`` does the I/O.
///
/// - Writes are throttled: the first change of a quiet period is written at once, then at
///   most one write per interval, the latest value always written; one write at a time.
/// - A row version the program wrote or played back is *known*: its notification is its own
///   echo and is ignored. A newer version is fetched and played back, unless a write is under
///   way, after which it is fetched again.
/// - A change saved while a playback is under way may reach the shared values before the
///   played-back value does: the write carrying it is then played back too, so that values
///   and row agree.
/// - A write that failed is kept, and written again when the server is reachable again: when
///   the table is listened to again, and, while it is listened to, after a growing delay.
///   Until then a reload does not take its value back, unless someone else wrote the row
///   since: the newer value wins, as over a pending change.
struct RowSync {
  /// A value waiting to be written, encoded only when it is, and the saves waiting on it.
  struct Pending {
    var encode: @Sendable () throws -> Data
    var continuations: [SaveContinuation]
    /// Whether it is written as soon as the write under way ends, whatever the throttle.
    var isImmediate: Bool
    /// Whether it writes again a value whose write failed, with no save waiting on it: its
    /// outcome is told to the subscribers instead.
    var isRetry = false
  }

  /// A write taken to be performed.
  struct Ticket {
    var pending: Pending
    /// Whether the row holds a value that could not be decoded, to keep before overwriting.
    var keepsAside: Bool
  }

  /// What a write that ended asks for next.
  struct AfterWrite {
    var next: Ticket?
    var scheduleAfter: Duration?
    var fetches = false
    var waiters: [@Sendable () -> Void] = []
    /// The delay after which ``retryTimeCame(now:)`` must be called.
    var retryAfter: Duration?
  }

  let interval: Duration
  private(set) var known: Int64?
  private(set) var pending: Pending?
  private(set) var isWriting = false
  private var isScheduled = false
  private var lastWrite: Duration?
  private var playbacks = 0
  /// Whether the next write carries a change saved during a playback.
  private var echoesNextWrite = false
  /// Whether the write under way carries such a change.
  private var echoesCurrentWrite = false
  /// Set when a notification or a reload came during a write: fetch once it ends.
  private var fetchAfterWrite = false
  /// Set by a reload: the next fetch plays back even a version already known.
  private(set) var playsBackKnownVersion = false
  /// Whether the row holds a value that could not be decoded.
  private var holdsUndecodable = false
  /// The value of the last write, if it failed, to write again.
  private var failed: (@Sendable () throws -> Data)?
  /// Whether the table is listened to: the server was reachable when last heard from.
  private var isListening = false
  private var isRetryScheduled = false
  /// The wait before writing a failed value again while the table is listened to.
  private var retryDelay = Backoff()
  /// The outcome of the last write, which saves of values never written report.
  private(set) var lastResult: Result<Void, any Error> = .success(())
  /// Called once no write is pending or under way.
  private var idleWaiters: [@Sendable () -> Void] = []

  init(interval: Duration) {
    self.interval = interval
  }

  var isIdle: Bool { !isWriting && pending == nil }

  // MARK: Saving

  /// Adds a throttled change. Returns the saves it supersedes, and the delay after which
  /// ``takeScheduled(now:)`` must be called, if a call is not scheduled yet.
  mutating func enqueue(
    _ change: Pending,
    now: Duration
  ) -> (superseded: [SaveContinuation], delay: Duration?) {
    if playbacks > 0 { echoesNextWrite = true }
    let superseded = pending?.continuations ?? []
    pending = Pending(
      encode: change.encode,
      continuations: change.continuations,
      isImmediate: pending?.isImmediate ?? false
    )
    guard !isScheduled, !isWriting else { return (superseded, nil) }
    isScheduled = true
    return (superseded, lastWrite.map { max($0 + interval - now, .zero) } ?? .zero)
  }

  /// Adds a change to write now: taken at once if no write is under way, else right after.
  mutating func enqueueImmediate(_ change: Pending, now: Duration) -> Ticket? {
    if playbacks > 0 { echoesNextWrite = true }
    var change = change
    change.continuations = (pending?.continuations ?? []) + change.continuations
    change.isImmediate = true
    pending = change
    return isWriting ? nil : take(now: now)
  }

  /// Takes the pending change when its scheduled time comes.
  mutating func takeScheduled(now: Duration) -> Ticket? {
    isScheduled = false
    return isWriting ? nil : take(now: now)
  }

  /// Marks the pending change, if any, to be written now; takes it if no write is under way.
  /// `done` is called once the row is idle, at once if it is.
  mutating func flush(
    now: Duration,
    done: @escaping @Sendable () -> Void
  ) -> (
    ticket: Ticket?, isIdle: Bool
  ) {
    pending?.isImmediate = true
    let ticket = isWriting ? nil : take(now: now)
    guard ticket != nil || !isIdle else { return (nil, true) }
    idleWaiters.append(done)
    return (ticket, false)
  }

  private mutating func take(now: Duration) -> Ticket? {
    guard let pending else { return nil }
    self.pending = nil
    isWriting = true
    lastWrite = now
    echoesCurrentWrite = echoesNextWrite
    echoesNextWrite = false
    return Ticket(pending: pending, keepsAside: holdsUndecodable)
  }

  /// Records the end of a write, and says what to do next.
  mutating func finishWrite(
    _ ticket: Ticket,
    result: Result<Int64, any Error>,
    now: Duration
  ) -> AfterWrite {
    isWriting = false
    var after = AfterWrite()
    switch result {
    case .success(let version):
      (holdsUndecodable, failed, lastResult) = (false, nil, .success(()))
      retryDelay.reset()
      // NB: Left unknown, the write's own notification fetches and plays it back.
      if echoesCurrentWrite { fetchAfterWrite = true } else { known = max(known ?? 0, version) }
    case .failure(let error):
      (failed, lastResult) = (ticket.pending.encode, .failure(error))
      // NB: Listened to, the table sends no event that would bring a retry: the server may
      //     be back already, and this write failed for another reason (say a connection it
      //     closed while restarting).
      if isListening, !isRetryScheduled {
        isRetryScheduled = true
        after.retryAfter = retryDelay.next()
      }
    }
    echoesCurrentWrite = false
    if fetchAfterWrite {
      fetchAfterWrite = false
      after.fetches = true
    }
    if let pending, pending.isImmediate {
      after.next = take(now: now)
    } else if pending != nil, !isScheduled {
      isScheduled = true
      after.scheduleAfter = max((lastWrite ?? now) + interval - now, .zero)
    }
    if isIdle {
      after.waiters = idleWaiters
      idleWaiters = []
    }
    return after
  }

  /// The delay asked for by ``AfterWrite/retryAfter`` has passed: the failed value is written
  /// again, unless the server was lost meanwhile (reconnecting writes it), or a newer change
  /// is waiting or under way.
  mutating func retryTimeCame(now: Duration) -> Ticket? {
    isRetryScheduled = false
    guard isListening, let failed, pending == nil, !isWriting else { return nil }
    pending = Pending(encode: failed, continuations: [], isImmediate: true, isRetry: true)
    fetchAfterWrite = true
    return take(now: now)
  }

  // MARK: Playback

  /// Whether a notification of `version` (`nil`: deleted) calls for a fetch now.
  mutating func notified(version: Int64?) -> Bool {
    if let version, let known, version <= known { return false }
    guard !isWriting else {
      fetchAfterWrite = true
      return false
    }
    return true
  }

  /// What a fetched row asks for: play it back (counted as a playback under way until
  /// ``endPlayback()``), with the saves of the pending change it replaces; or nothing.
  mutating func fetched(_ row: StoredRow?) -> (playsBack: Bool, discarded: [SaveContinuation]) {
    // NB: A failed write's value is newer than every version known: a reload, even one that
    //     plays back known versions, must not take it back before it is written again.
    if failed != nil, !isNewerThanKnown(row) { return (false, []) }
    let force = playsBackKnownVersion
    if let version = row?.version, let known, version <= known, !force { return (false, []) }
    if row == nil, known == nil, !force { return (false, []) }
    // NB: A write under way may land after the fetched value: fetch again once it has.
    guard !isWriting else {
      fetchAfterWrite = true
      return (false, [])
    }
    playsBackKnownVersion = false
    known = row?.version
    holdsUndecodable = false
    // NB: Someone else wrote the row since: their value wins over the one that failed.
    failed = nil
    playbacks += 1
    // NB: The row changed after the pending value was set: the newer value wins, rather than
    //     being overwritten by the older one, as with files.
    defer { pending = nil }
    return (true, pending?.continuations ?? [])
  }

  /// Whether a fetched row was written by someone else since the version known.
  private func isNewerThanKnown(_ row: StoredRow?) -> Bool {
    switch (row?.version, known) {
    case (let version?, let known?): version > known
    case (nil, nil): false
    default: true
    }
  }

  mutating func endPlayback() {
    playbacks -= 1
  }

  /// Records a load's row as known, unless a write of the program's may be newer.
  mutating func loaded(_ row: StoredRow?) {
    guard isIdle else { return }
    known = row?.version
  }

  /// Records that the row's value could not be decoded.
  mutating func markUndecodable() {
    holdsUndecodable = true
  }

  /// Records that a fetch failed: the next one plays back the row whatever its version, to
  /// replace the error the shared values hold.
  mutating func fetchFailed() {
    playsBackKnownVersion = true
  }

  /// Once the table is listened to — at first, or again after the connection was lost —
  /// writes what failed meanwhile, then checks the row: after a loss, or a failed fetch, it
  /// is played back whatever its version. Returns the write to make now, if any, and whether
  /// to fetch now.
  mutating func listening(afterLoss: Bool, now: Duration) -> (ticket: Ticket?, fetches: Bool) {
    isListening = true
    retryDelay.reset()
    if afterLoss { playsBackKnownVersion = true }
    if pending == nil, let failed {
      pending = Pending(encode: failed, continuations: [], isImmediate: true, isRetry: true)
    }
    // NB: A change the throttle holds waits for its turn, unless the connection was lost:
    //     then it goes first, so that the reload does not take it back.
    guard isWriting || pending?.isImmediate == true || (afterLoss && pending != nil) else {
      return (nil, true)
    }
    fetchAfterWrite = true
    pending?.isImmediate = true
    return (isWriting ? nil : take(now: now), false)
  }

  /// Records that the table is no longer listened to: the server cannot be reached, and
  /// failed writes wait for ``listening(afterLoss:now:)``.
  mutating func connectionLost() {
    isListening = false
  }

  // MARK: Transactions

  /// Drops the pending change, which a committed transaction's value supersedes; returns its
  /// saves.
  mutating func transactionCommitted() -> [SaveContinuation] {
    defer { pending = nil }
    return pending?.continuations ?? []
  }

  /// Records the version a transaction writes, before it commits, so that its notification
  /// is known as the program's own.
  mutating func willCommit(_ version: Int64) {
    known = max(known ?? 0, version)
    (holdsUndecodable, failed) = (false, nil)
  }
}
