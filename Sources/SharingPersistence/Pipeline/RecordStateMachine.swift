import Foundation
import SharingCore

/// Every rule of one persisted record — a file, a PostgreSQL row, a user defaults store — as a
/// state machine: when changes are written, in what order, what is retried, when flushes end,
/// what the store is known to hold, and when others' changes are read and played back.
///
/// Each method is an event and returns the actions it calls for, in order. ``Record`` feeds
/// the events under its lock and performs the actions after unlocking, doing the I/O that
/// its store supplies (``RecordIO``). The rules:
///
/// - **Throttle.** The first change of a quiet period is written at once; later ones at most
///   once per interval, the latest value always written. An explicit save, a flush and a
///   zero interval write at once.
/// - **Order.** One write at a time: a change made during a write is written after it, so
///   an older value never lands after a newer one.
/// - **Retry.** A write that failed is kept and written again by the next flush (and so at
///   exit), when the store is reachable again, and, for stores that ask for it, after a
///   growing delay. Its error stays visible until a write succeeds.
/// - **What the store holds.** The stamp of what the program last read or wrote. A change
///   noticed with that stamp is the program's own echo. A store never read, or last found
///   unreadable, is read before it is written: a value found there that the program never
///   loaded wins over the change, which fails saying so.
/// - **Playback.** Someone else's change is read, then delivered to the subscribers, one
///   read at a time; a change noticed meanwhile is read once it ends. A read made while a
///   write may land after it is not delivered: it is made again once the write ended. A
///   newer value replaces a pending change. A change saved while a delivery is under way
///   may reach the shared values before the delivered value does: the write carrying it is
///   read back and delivered once it landed, so that values and store agree.
/// - **Merging.** A store whose writes merge the program's changes into what it holds (a
///   user defaults store writes only the keys the program changed) keeps a pending change
///   when someone else's is delivered, and writes over a value the program never loaded.
struct RecordStateMachine<Stamp: Equatable & Sendable> {
  /// The least time between two throttled writes, unless a change asks for its own.
  let interval: Duration
  /// Whether a failed write is made again after a growing delay while the store is reachable.
  let retriesAfterDelay: Bool
  /// Whether a write merges the program's changes into what the store holds, rather than
  /// replacing it: someone else's change then replaces no change of the program's.
  let mergesWrites: Bool

  // MARK: Writes

  private var pending: Pending?
  /// The write under way, if any.
  private var writing: WriteTicket?
  /// Whether a transaction of the store is under way.
  private var isInTransaction = false
  /// Whether a write or a transaction may change the store now: a read then may find it
  /// before or after.
  private var isWriting: Bool { writing != nil || isInTransaction }
  /// The number of writes taken so far: the sequence number of the newest.
  private var writesTaken: UInt64 = 0
  private var lastWrite: Duration?
  private var isScheduled = false
  /// The value of the last write, if it failed: written again until a write succeeds.
  private var failed: (@Sendable () throws -> Data)?
  /// The outcome of the last write.
  private var lastResult: Result<Void, any Error> = .success(())
  /// Flushes waiting for every write numbered up to `through` to end.
  private var flushes: [(through: UInt64, done: @Sendable () -> Void)] = []
  private var isRegisteredPending = false
  /// Whether the store can be reached, as its I/O last said: failed writes wait for it.
  private var isReachable = true
  private var isRetryScheduled = false
  private var retryDelay = Backoff()

  // MARK: What the store holds

  /// The stamp of what the store held when the program last read or wrote it, if it did.
  private var known: Stamp??
  /// Whether the store could not be read the last time it was.
  private var isUnreadable = false
  /// Bytes the store held that could not be decoded: kept aside before they are overwritten.
  private var undecodable: Data?
  /// The contents the program last wrote or read, while a live watch keeps that knowledge
  /// true: a write of the same bytes is skipped.
  private var watchedContents: Data??

  // MARK: Playback

  private(set) var subscribers = 0
  private var watch = WatchPhase.none
  private var watchGeneration = 0
  /// The read under way, if any, followed by its delivery.
  private var reading: ReadTicket?
  private var isDelivering = false
  /// Whether a change was noticed while a read or a write was under way: read once it ends.
  private var readsAgain = false
  /// Whether the next read is delivered even if it holds what the program knows.
  private var deliversKnown = false
  /// Whether a change was saved while a delivery was under way.
  private var echoesNextWrite = false
  private(set) var holders = 0
  private var isReleased = false

  init(interval: Duration, retriesAfterDelay: Bool = false, mergesWrites: Bool = false) {
    self.interval = interval
    self.retriesAfterDelay = retriesAfterDelay
    self.mergesWrites = mergesWrites
  }

  private struct Pending {
    var write: PendingWrite
    var isImmediate: Bool
    var isRetry = false
  }

  private enum WatchPhase: Equatable {
    case none
    case starting(generation: Int)
    case active(generation: Int)
  }

  /// Whether no write is pending or under way, and none failed.
  var isIdle: Bool { pending == nil && writing == nil && failed == nil }

  /// Whether nothing needs the record: no holder, subscriber, write, read or flush.
  var isUnused: Bool {
    holders == 0 && subscribers == 0 && isIdle && reading == nil && flushes.isEmpty
      && watch == .none
  }

  // MARK: Saving

  /// A change was made: written now if `urgency` asks for it or the store is quiet, else
  /// after the interval (the key's own, if it gives one).
  mutating func saved(
    _ write: PendingWrite,
    urgency: WriteUrgency,
    interval: Duration? = nil,
    now: Duration
  ) -> [RecordAction<Stamp>] {
    if isDelivering { echoesNextWrite = true }
    let interval = interval ?? self.interval
    let isImmediate = urgency == .immediate || interval == .zero
    var write = write
    var actions = registerPending()
    // NB: A replaced value is never written: its saves wait for the value that replaced it.
    if let replaced = pending {
      write.continuations = replaced.write.continuations + write.continuations
      actions.append(.discard(replaced.write.encode))
    }
    pending = Pending(write: write, isImmediate: isImmediate || pending?.isImmediate == true)
    guard writing == nil else { return actions }
    let sinceLast = lastWrite.map { now - $0 }
    let isQuiet = urgency == .throttled && sinceLast.map { $0 >= interval } ?? true
    if pending?.isImmediate == true || (isQuiet && !isScheduled) {
      return actions + take(now: now)
    }
    guard !isScheduled else { return actions }
    isScheduled = true
    let delay =
      urgency == .background
      ? max(interval, .zero) : max(interval - (sinceLast ?? interval), .zero)
    actions.append(.schedule(after: delay))
    return actions
  }

  /// The delay asked for by ``RecordAction/schedule(after:)`` has passed.
  mutating func scheduledTimeCame(now: Duration) -> [RecordAction<Stamp>] {
    isScheduled = false
    guard writing == nil, pending != nil else { return [] }
    return take(now: now)
  }

  /// Everything pending (and a failed value) must be written now, and `done` called once
  /// every write taken until then has ended.
  mutating func flushRequested(
    now: Duration,
    done: @escaping @Sendable () -> Void
  ) -> [RecordAction<Stamp>] {
    if pending == nil, let failed {
      pending = Pending(write: PendingWrite(encode: failed), isImmediate: true, isRetry: true)
    }
    pending?.isImmediate = true
    let actions = writing == nil && pending != nil ? take(now: now) : []
    let through = writesTaken + (pending == nil ? 0 : 1)
    guard writing != nil || pending != nil else { return actions + [.finishFlushes([done])] }
    flushes.append((through, done))
    return actions
  }

  private mutating func take(now: Duration) -> [RecordAction<Stamp>] {
    guard let taken = pending else { return [] }
    pending = nil
    lastWrite = now
    writesTaken += 1
    let mustCheckStore = known == nil || isUnreadable
    let ticket = WriteTicket(
      write: taken.write,
      sequence: writesTaken,
      isUrgent: taken.isImmediate,
      isRetry: taken.isRetry,
      echoes: echoesNextWrite,
      keepingAside: undecodable,
      unchangedContents: watchedContents
    )
    echoesNextWrite = false
    writing = ticket
    return [mustCheckStore ? .checkBeforeWriting(ticket) : .write(ticket)]
  }

  /// The store, read before write `ticket` because the program never read it or could not,
  /// holds `read`: it is written if it holds no value, the value the program knows, or if
  /// writes merge into it; otherwise the write fails with `refusal`: the store cannot be
  /// read (the write is made again later), or its value is one the program never loaded,
  /// which is played back.
  mutating func checkedBeforeWriting(
    _ ticket: WriteTicket,
    _ read: Result<StoredSnapshot<Stamp>, any Error>,
    refusal: any Error,
    now: Duration
  ) -> [RecordAction<Stamp>] {
    switch read {
    case .success(let snapshot)
    where snapshot.contents == nil || snapshot.stamp == known || mergesWrites:
      isUnreadable = false
      known = snapshot.stamp
      return [.write(ticket)]
    case .success(let snapshot):
      // NB: Accepted first, so that the pending change it replaces is not written after it.
      let delivery = accept(snapshot)
      return writeEnded(ticket, .refused(refusal, retried: false), now: now) + delivery
    case .failure:
      isUnreadable = true
      return writeEnded(ticket, .refused(refusal, retried: true), now: now)
    }
  }

  /// Write `ticket` ended.
  mutating func writeEnded(
    _ ticket: WriteTicket,
    _ outcome: WriteOutcome<Stamp>,
    now: Duration
  ) -> [RecordAction<Stamp>] {
    writing = nil
    var actions: [RecordAction<Stamp>] = []
    let result: Result<Void, any Error>
    switch outcome {
    case .wrote(let stamp, let contents):
      (known, isUnreadable, undecodable) = (stamp, false, nil)
      actions += forgetFailed()
      if subscribers > 0, watch != .none, case .some = watchedContents {
        watchedContents = contents
      }
      retryDelay.reset()
      result = .success(())
      if ticket.echoes { actions += readBack() }
    case .skipped:
      actions += forgetFailed()
      result = .success(())
    case .refused(let error, let isRetried):
      if isRetried {
        actions += forgetFailed()
        failed = ticket.write.encode
      }
      result = .failure(error)
    case .failed(let error):
      actions += forgetFailed()
      failed = ticket.write.encode
      result = .failure(error)
      if retriesAfterDelay, isReachable, !isRetryScheduled {
        isRetryScheduled = true
        actions.append(.scheduleRetry(after: retryDelay.next()))
      }
    }
    lastResult = result
    if !ticket.write.continuations.isEmpty {
      actions.append(.resume(ticket.write.continuations, result))
    }
    if ticket.isRetry { actions.append(.reportRetry(result)) }
    let finished = flushes.filter { $0.through <= ticket.sequence }
    if !finished.isEmpty {
      flushes.removeAll { $0.through <= ticket.sequence }
      actions.append(.finishFlushes(finished.map(\.done)))
    }
    if pending?.isImmediate == true {
      actions += take(now: now)
    } else if pending != nil, !isScheduled {
      isScheduled = true
      let sinceLast = now - (lastWrite ?? now)
      actions.append(.schedule(after: max(interval - sinceLast, .zero)))
    }
    if writing == nil { actions += readAgainIfAsked() }
    return actions + unregisterIfIdle() + releaseIfUnused()
  }

  /// The delay asked for by ``RecordAction/scheduleRetry(after:)`` has passed: the failed
  /// value is written again, unless the store is unreachable (reaching it again writes it),
  /// or a newer change is waiting or under way.
  mutating func retryTimeCame(now: Duration) -> [RecordAction<Stamp>] {
    isRetryScheduled = false
    guard isReachable, let failed, pending == nil, !isWriting else { return [] }
    pending = Pending(write: PendingWrite(encode: failed), isImmediate: true, isRetry: true)
    readsAgain = true
    return take(now: now)
  }

  /// Forgets the failed write's value: someone's newer value replaced it.
  private mutating func forgetFailed() -> [RecordAction<Stamp>] {
    guard let failed else { return [] }
    self.failed = nil
    return [.discard(failed)]
  }

  private mutating func registerPending() -> [RecordAction<Stamp>] {
    guard !isRegisteredPending else { return [] }
    isRegisteredPending = true
    return [.registerPending]
  }

  private mutating func unregisterIfIdle() -> [RecordAction<Stamp>] {
    guard isRegisteredPending, isIdle else { return [] }
    isRegisteredPending = false
    return [.unregisterPending]
  }

  // MARK: Reaching the store

  /// The store can no longer be reached: failed writes wait until it can.
  mutating func becameUnreachable() {
    isReachable = false
    watchedContents = nil
  }

  /// The store can be reached again — or for the first time. A failed write is made first;
  /// then the store is read, and after a loss delivered whatever it holds.
  mutating func becameReachable(afterLoss: Bool, now: Duration) -> [RecordAction<Stamp>] {
    isReachable = true
    retryDelay.reset()
    if afterLoss { deliversKnown = true }
    if pending == nil, let failed {
      pending = Pending(write: PendingWrite(encode: failed), isImmediate: true, isRetry: true)
    }
    // NB: A throttled change waits for its turn, unless the store was lost: then it goes
    //     first, so that the read does not take it back.
    guard writing != nil || pending?.isImmediate == true || (afterLoss && pending != nil) else {
      return changeNoticed(stamp: nil)
    }
    pending?.isImmediate = true
    readsAgain = true
    return writing == nil ? take(now: now) : []
  }

  // MARK: Transactions

  /// A transaction of the store began: a read made meanwhile may find the store before or
  /// after it, so it is made again once the transaction ended.
  mutating func transactionBegan() {
    isInTransaction = true
    writesTaken += 1
  }

  /// The transaction read `read` with every writer locked out: it is not played back, since
  /// the transaction starts from it and the shared values then take its result.
  mutating func transactionRead(_ read: Result<StoredSnapshot<Stamp>, any Error>) {
    guard case .success(let snapshot) = read else { return }
    known = snapshot.stamp
    isUnreadable = false
  }

  /// The transaction ended, having written `contents` stamped `stamp` if it wrote anything.
  ///
  /// What it wrote supersedes the pending change, and is read back and delivered if a
  /// delivery is under way, which may reach the shared values after it.
  mutating func transactionEnded(wrote: (stamp: Stamp, contents: Data)?) -> [RecordAction<Stamp>] {
    isInTransaction = false
    var actions: [RecordAction<Stamp>] = []
    if let wrote {
      (known, isUnreadable, undecodable) = (wrote.stamp, false, nil)
      actions += forgetFailed()
      if case .some = watchedContents { watchedContents = wrote.contents }
      if let superseded = pending {
        pending = nil
        actions += [
          .resume(superseded.write.continuations, .success(())), .discard(superseded.write.encode),
        ]
      }
      if isDelivering { actions += readBack() }
    }
    return actions + readAgainIfAsked() + unregisterIfIdle()
  }

  // MARK: Reading

  /// The store was read for a load: what it holds becomes known, unless a write of the
  /// program's may be newer.
  mutating func loaded(_ read: Result<StoredSnapshot<Stamp>, any Error>) {
    guard isIdle else { return }
    switch read {
    case .success(let snapshot):
      (known, isUnreadable) = (snapshot.stamp, false)
    case .failure:
      isUnreadable = true
    }
  }

  /// The bytes the store holds could not be decoded: they are kept aside before they are
  /// overwritten.
  mutating func markUndecodable(_ contents: Data) {
    undecodable = contents
  }

  /// The bytes the store holds were decoded: nothing needs keeping aside.
  mutating func markDecodable() {
    undecodable = nil
  }

  /// Someone may have changed the store; `stamp` is the stamp it now has, if the notice
  /// tells it.
  mutating func changeNoticed(stamp: Stamp?) -> [RecordAction<Stamp>] {
    if let stamp, case .some(stamp) = known, !deliversKnown { return [] }
    guard subscribers > 0 else { return [] }
    guard reading == nil, !isWriting else {
      readsAgain = true
      return []
    }
    return startReading()
  }

  private mutating func startReading(verifying generation: Int? = nil) -> [RecordAction<Stamp>] {
    let ticket = ReadTicket(writesTaken: writesTaken, verifiesWatch: generation)
    reading = ticket
    return [.read(ticket)]
  }

  /// Reads the store back after a write that may have reached the shared values before a
  /// delivery did, and delivers it whatever its stamp.
  private mutating func readBack() -> [RecordAction<Stamp>] {
    deliversKnown = true
    guard reading == nil, !isWriting, subscribers > 0 else {
      readsAgain = subscribers > 0
      return []
    }
    return startReading()
  }

  /// Read `ticket` found `read`.
  mutating func readEnded(
    _ ticket: ReadTicket,
    _ read: Result<StoredSnapshot<Stamp>, any Error>
  ) -> [RecordAction<Stamp>] {
    reading = nil
    if let generation = ticket.verifiesWatch, watch == .active(generation: generation) {
      watchedContents = (try? read.get()).map { .some($0.contents) } ?? nil
    }
    // NB: A write taken since may land after what was read: read again once it has.
    guard !isWriting, ticket.writesTaken == writesTaken, subscribers > 0 else {
      readsAgain = readsAgain || subscribers > 0
      return (isWriting ? [] : readAgainIfAsked()) + releaseIfUnused()
    }
    switch read {
    case .failure(let error):
      let wasUnreadable = isUnreadable
      isUnreadable = true
      deliversKnown = true
      guard !wasUnreadable else { return readAgainIfAsked() + releaseIfUnused() }
      isDelivering = true
      return [.deliver(.failure(error))]
    case .success(let snapshot):
      let isKnown = known == .some(snapshot.stamp) && !isUnreadable
      // NB: A failed write's value is newer than what the program knew: a read must not
      //     take it back, unless someone else changed the store since.
      if isKnown, !deliversKnown || failed != nil { return readAgainIfAsked() + releaseIfUnused() }
      deliversKnown = false
      return accept(snapshot)
    }
  }

  /// Takes `snapshot` as what the store holds, newer than any pending change unless writes
  /// merge, and delivers it.
  private mutating func accept(_ snapshot: StoredSnapshot<Stamp>) -> [RecordAction<Stamp>] {
    (known, isUnreadable) = (snapshot.stamp, false)
    if case .some = watchedContents { watchedContents = snapshot.contents }
    var actions = mergesWrites ? [] : forgetFailed()
    if !mergesWrites, let replaced = pending {
      // NB: The store changed after the pending value was set: the newer value wins, rather
      //     than being overwritten by the older one.
      pending = nil
      actions += [
        .resume(replaced.write.continuations, .success(())), .discard(replaced.write.encode),
      ]
    }
    isDelivering = true
    reading = reading ?? ReadTicket(writesTaken: writesTaken, verifiesWatch: nil)
    return actions + unregisterIfIdle() + [.deliver(.success(snapshot))]
  }

  /// A delivery ended.
  mutating func deliveryEnded() -> [RecordAction<Stamp>] {
    isDelivering = false
    reading = nil
    return readAgainIfAsked() + releaseIfUnused()
  }

  private mutating func readAgainIfAsked() -> [RecordAction<Stamp>] {
    guard readsAgain, reading == nil, !isWriting, subscribers > 0 else { return [] }
    readsAgain = false
    return startReading()
  }

  // MARK: Subscribers and watching

  /// A subscriber wants others' changes: the store is watched while it has any.
  mutating func subscribed() -> [RecordAction<Stamp>] {
    subscribers += 1
    guard watch == .none else { return [] }
    watchGeneration += 1
    watch = .starting(generation: watchGeneration)
    return [.startWatching(generation: watchGeneration)]
  }

  /// The watch asked for by ``RecordAction/startWatching(generation:)`` started: the store
  /// is read, as it may have changed since it was loaded, which verifies the watch.
  ///
  /// - Returns: `nil` if the watch is no longer wanted: stop it.
  mutating func watchStarted(generation: Int) -> [RecordAction<Stamp>]? {
    guard watch == .starting(generation: generation) else { return nil }
    watch = .active(generation: generation)
    guard reading == nil, !isWriting else {
      readsAgain = true
      return []
    }
    return startReading(verifying: generation)
  }

  /// A subscriber left.
  mutating func unsubscribed() -> [RecordAction<Stamp>] {
    subscribers -= 1
    guard subscribers == 0 else { return [] }
    // NB: Unwatched, the store may change unnoticed: what it holds is no longer sure.
    watchedContents = nil
    readsAgain = false
    let wasWatched = watch != .none
    watch = .none
    return (wasWatched ? [.stopWatching] : []) + releaseIfUnused()
  }

  // MARK: Holders

  /// A key holding the record was created.
  mutating func holderAdded() {
    holders += 1
  }

  /// A key holding the record went away.
  mutating func holderRemoved() -> [RecordAction<Stamp>] {
    holders -= 1
    return releaseIfUnused()
  }

  /// Whether the record may go, checked again by its registry as it removes it: once true,
  /// the record takes no more holders.
  mutating func confirmRelease() -> Bool {
    guard isUnused, !isReleased else { return false }
    isReleased = true
    return true
  }

  private func releaseIfUnused() -> [RecordAction<Stamp>] {
    isUnused && !isReleased ? [.release] : []
  }
}

/// Why a value the program changed was not written: the store holds a value the program
/// never loaded (it could not be read, or not reached, when it was loaded), which is played
/// back instead of being overwritten.
struct UnloadedValueError: Error, CustomStringConvertible {
  var description: String {
    """
    The store holds a value this program had not loaded: it was loaded instead of being \
    overwritten. Change the value again to write it.
    """
  }
}
