import Foundation

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
///
/// Its events are in `RecordStateMachine+Writes.swift` and `RecordStateMachine+Reads.swift`;
/// nothing else changes its state.
package struct RecordStateMachine<Stamp: Equatable & Sendable> {
  /// The least time between two throttled writes, unless a change asks for its own.
  let interval: Duration
  /// Whether the first change of a quiet period is written by the thread that made it,
  /// rather than as soon as the scheduler can: a store on a network is not written from a
  /// thread that changed a value.
  let writesQuietChangesAtOnce: Bool
  /// Whether a failed write is made again after a growing delay while the store is reachable.
  let retriesAfterDelay: Bool
  /// Whether a write merges the program's changes into what the store holds, rather than
  /// replacing it: someone else's change then replaces no change of the program's.
  let mergesWrites: Bool

  // MARK: Writes

  /// The latest change not yet taken to be written.
  var pending: Pending?
  /// The write under way, if any.
  var writing: WriteTicket?
  /// Whether a transaction of the store is under way.
  var isInTransaction = false
  /// Whether a write or a transaction may change the store now: a read then may find it
  /// before or after.
  var isWriting: Bool { writing != nil || isInTransaction }
  /// The number of changes saved so far.
  var changesSaved: UInt64 = 0
  /// The number of writes taken so far: the sequence number of the newest.
  var writesTaken: UInt64 = 0
  var lastWrite: Duration?
  var isScheduled = false
  /// The value of the last write, if it failed: written again until a write succeeds.
  var failed: (@Sendable () throws -> Data)?
  /// The outcome of the last write.
  var lastResult: Result<Void, any Error> = .success(())
  /// Flushes waiting for every write numbered up to `through` to end.
  var flushes: [(through: UInt64, done: @Sendable () -> Void)] = []
  var isRegisteredPending = false
  /// Whether the store can be reached, as its I/O last said: failed writes wait for it.
  var isReachable = true
  var isRetryScheduled = false
  var retryDelay = Backoff()

  // MARK: What the store holds

  /// The stamp of what the store held when the program last read or wrote it, if it did.
  var known: Stamp?? {
    didSet { knowledge &+= 1 }
  }
  /// Whether what the store held then was no value.
  var knownHoldsNoValue = false
  /// Whether the store could not be read the last time it was.
  var isUnreadable = false
  /// Bytes the store held that could not be decoded: kept aside before they are overwritten.
  var undecodable: Data?
  /// The contents the program last wrote or read, while a live watch keeps that knowledge
  /// true: a write of the same bytes is skipped.
  var watchedContents: Data??

  // MARK: Playback

  var subscribers = 0
  var watch = WatchPhase.none
  var watchGeneration = 0
  /// The read under way, if any, followed by its delivery.
  var reading: ReadTicket?
  var isDelivering = false
  /// Whether the delivery under way is a load's, which a change saved meanwhile was not made
  /// from: it is not read back after its write.
  var isDeliveringLoad = false
  /// Whether a change was noticed while a read or a write was under way: read once it ends.
  var readsAgain = false
  /// Loads waiting for the transaction, read or delivery under way to end: each is resumed
  /// once none is.
  var waitingLoads: [@Sendable () -> Void] = []
  /// How many times what the program knows of the store changed, or the store was lost: a
  /// load that began before the last change may be older than it.
  var knowledge: UInt64 = 0
  /// Whether the next read is delivered even if it holds what the program knows.
  var deliversKnown = false
  /// Whether a change was saved while a delivery was under way.
  var echoesNextWrite = false
  var holders = 0
  var isReleased = false

  package init(
    interval: Duration,
    writesQuietChangesAtOnce: Bool = true,
    retriesAfterDelay: Bool = false,
    mergesWrites: Bool = false
  ) {
    self.interval = interval
    self.writesQuietChangesAtOnce = writesQuietChangesAtOnce
    self.retriesAfterDelay = retriesAfterDelay
    self.mergesWrites = mergesWrites
  }

  struct Pending {
    var write: PendingWrite
    var isImmediate: Bool
    var isRetry = false
    /// The interval of the key that saved it, if not the store's.
    var interval: Duration?
  }

  enum WatchPhase: Equatable {
    case none
    case starting(generation: Int)
    case active(generation: Int)
  }

  /// Whether a change waits to be written, or is being written.
  var hasChangeToWrite: Bool { pending != nil || writing != nil }

  /// Whether no write is pending or under way, and none failed.
  var isIdle: Bool { pending == nil && writing == nil && failed == nil }

  /// Whether nothing needs the record: no holder, subscriber, write, read or flush.
  var isUnused: Bool {
    holders == 0 && subscribers == 0 && isIdle && reading == nil && flushes.isEmpty
      && watch == .none
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

  func releaseIfUnused() -> [RecordAction<Stamp>] {
    isUnused && !isReleased ? [.release] : []
  }

  /// The store was read, and holds `snapshot`.
  mutating func know(_ snapshot: StoredSnapshot<Stamp>) {
    known = snapshot.stamp
    knownHoldsNoValue = snapshot.contents == nil
    isUnreadable = false
  }

  /// The program wrote `contents`, stamped `stamp`: the store holds them (and the watch, if
  /// it keeps what the store holds), and the failed value, which they replace, is forgotten.
  /// `watchedContents` holds a value only while the store is watched: a verifying read sets
  /// it, and the last subscriber's leaving clears it.
  mutating func wrote(_ stamp: Stamp, _ contents: Data) -> [RecordAction<Stamp>] {
    (known, knownHoldsNoValue, isUnreadable, undecodable) = (stamp, false, false, nil)
    if case .some = watchedContents { watchedContents = contents }
    return forgetFailed()
  }

  /// Forgets the failed write's value: someone's newer value replaced it.
  mutating func forgetFailed() -> [RecordAction<Stamp>] {
    guard let failed else { return [] }
    self.failed = nil
    return [.discard(failed)]
  }

  /// Drops the pending change, which a newer value the store holds replaced: its saves
  /// succeed, as what they saved was superseded.
  mutating func supersedePending() -> [RecordAction<Stamp>] {
    guard let old = pending.take() else { return [] }
    return [.resume(old.write.continuations, .success(())), .discard(old.write.encode)]
  }

  mutating func registerPending() -> [RecordAction<Stamp>] {
    guard !isRegisteredPending else { return [] }
    isRegisteredPending = true
    return [.updatePending(isPending: true)]
  }

  mutating func unregisterIfIdle() -> [RecordAction<Stamp>] {
    guard isRegisteredPending, isIdle else { return [] }
    isRegisteredPending = false
    return [.updatePending(isPending: false)]
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
