import Foundation
import SharingCore

/// Every rule of one file, as a state machine: which writes happen and when, what the file is
/// known to hold, which bytes are kept aside, when the file's changes are played back, and
/// when nothing needs the record any more.
///
/// Each method is an event (a save requested, a write finished, the file read…) and returns
/// the effects to run, which ``StoredFile`` runs outside its lock, doing the I/O.
struct StoredFileState {
  let url: URL
  private(set) var throttle: WriteThrottle
  /// What the file holds, as last read or written.
  private(set) var contents: FileContents = .unknown
  /// Whether a watch that sees every change has been checked against the file since it
  /// started: `contents` is then kept true by the checks its notifications cause, for as
  /// long as the watch stays active.
  private(set) var isWatchVerified = false
  /// Whether the watch sees every change now: one that was active stops being so when it
  /// falls back to polling.
  private var isWatchActive: Bool {
    guard case .active(_, let started) = watch else { return false }
    return started.isActive
  }
  /// Bytes that failed to decode, kept aside before the file is overwritten.
  private(set) var undecodable: Data?
  /// The writes taken from the throttle that have not finished.
  private(set) var inFlight: Set<UInt64> = []
  /// The newest write that finished, written or not: an older one is never written after it.
  private var newestFinished: UInt64 = 0
  /// A change someone else made, read while writes of ours were in flight: not played back
  /// while one of them may still land after it, played back once none can.
  private var changeUnderWrites: Result<Data?, any Error>?
  /// Flushes waiting for every write numbered up to `through` to finish.
  private var flushes: [(through: UInt64, done: @Sendable () -> Void)] = []
  /// Whether the file is among the pending files, as it is from a change until it is idle.
  private var isPending = false
  /// The outcome of the newest finished write, which saves of values never written report.
  private var lastResult: Result<Void, any Error> = .success(())
  private var lastResultSequence: UInt64 = 0
  private(set) var holders = 0
  /// The interval between throttled writes that the live holders asked for.
  private var holderInterval: Duration?
  private var hasReportedTwoIntervals = false
  /// Whether the live holders change the file in coordinated transactions.
  private var holderIsCoordinated: Bool?
  private var hasReportedMixedCoordination = false
  private var subscribers: [Int: FileSubscriber] = [:]
  private var nextSubscriberID = 0
  private(set) var watch = Watch.none
  private var watchGeneration = 0
  private(set) var playbacks = PlaybackQueue()
  /// Set when a change is saved during a playback: writes numbered after it carry the change,
  /// and the first to land is played back, since the playback may have reached the shared
  /// values after the change did.
  private var playsBackWritesAfter: UInt64?
  private(set) var isReleased = false

  init(url: URL, interval: Duration) {
    self.url = url
    self.throttle = WriteThrottle(interval: interval)
  }

  /// Whether no write is pending or in flight.
  var isIdle: Bool { inFlight.isEmpty && throttle.pending == nil }

  /// Whether a write in flight may still be written: one older than a write that finished
  /// never is.
  private var hasWriteToLand: Bool { inFlight.contains { $0 > newestFinished } }

  /// Whether nothing needs the record: no holder, no write, no subscriber, no playback.
  var isUnused: Bool {
    guard case .none = watch else { return false }
    return holders == 0 && subscribers.isEmpty && isIdle && flushes.isEmpty && !playbacks.isBusy
  }

  // MARK: Holders

  /// A key for the file was created, asking for `interval` between throttled writes, or
  /// for coordinated changes.
  mutating func holderAdded(interval: Duration, isCoordinated: Bool = false) -> [Effect] {
    holders += 1
    if let existing = holderIsCoordinated, existing != isCoordinated,
      !hasReportedMixedCoordination
    {
      hasReportedMixedCoordination = true
      return [.reportMixedCoordination(of: url)]
    }
    holderIsCoordinated = isCoordinated
    guard let existing = holderInterval else {
      holderInterval = interval
      return []
    }
    guard existing != interval, !hasReportedTwoIntervals else { return [] }
    hasReportedTwoIntervals = true
    return [.reportTwoThrottles(of: url, existing, interval)]
  }

  /// A key for the file went away.
  mutating func holderRemoved() -> [Effect] {
    holders -= 1
    if holders == 0 { (holderInterval, holderIsCoordinated) = (nil, nil) }
    return releaseIfUnused()
  }

  /// Whether the record may go, checked again by its storage as it removes it: once true, the
  /// record takes no more holders.
  mutating func confirmRelease() -> Bool {
    guard isUnused, !isReleased else { return false }
    isReleased = true
    return true
  }

  private func releaseIfUnused() -> [Effect] {
    isUnused && !isReleased ? [.release] : []
  }

  // MARK: Writing

  /// A value was saved: written now when `immediate` or after a quiet period, else throttled.
  mutating func saveRequested(
    _ write: PendingWrite,
    immediate: Bool,
    interval: Duration?,
    now: Duration
  ) -> [Effect] {
    if playbacks.isBusy, playsBackWritesAfter == nil { playsBackWritesAfter = throttle.sequence }
    var effects = registerPending()
    guard !immediate else {
      return effects + [take(throttle.takeImmediate(write, now: now))]
    }
    let enqueued = throttle.enqueue(write, now: now, interval: interval)
    // NB: A replaced value is never written: its saves end with what the file last saw, so
    //     that a failed write's error stays until a later write succeeds.
    if !enqueued.superseded.isEmpty { effects.append(.resume(enqueued.superseded, lastResult)) }
    switch enqueued.delay {
    case .none:
      return effects
    case .some(let delay) where delay > .zero:
      return effects + [.scheduleWrite(after: delay)]
    case .some:
      // NB: The first change of a quiet period is written before the change returns.
      return effects + (throttle.takeScheduled(now: now).map { [take($0)] } ?? [])
    }
  }

  /// The delay asked for by ``Effect/scheduleWrite(after:)`` has passed.
  mutating func scheduledTimeCame(now: Duration) -> [Effect] {
    throttle.takeScheduled(now: now).map { [take($0)] } ?? []
  }

  /// Everything pending must be written now, and `done` called once every write taken so far
  /// has finished.
  mutating func flushRequested(now: Duration, done: @escaping @Sendable () -> Void) -> [Effect] {
    var effects = throttle.takePending(now: now).map { [take($0)] } ?? []
    let through = throttle.sequence
    if inFlight.contains(where: { $0 <= through }) {
      flushes.append((through, done))
    } else {
      effects.append(.finishFlushes([done]))
    }
    return effects
  }

  private mutating func take(_ ticket: WriteThrottle.Ticket) -> Effect {
    inFlight.insert(ticket.sequence)
    return .write(ticket)
  }

  /// What to do with the encoded bytes of write `sequence`, with the file's lock held; `nil`
  /// when the file must be read first, for ``fileCheckedBeforeWriting(_:sequence:data:thread:)``.
  func writeDecision(for data: Data, sequence: UInt64) -> WriteDecision? {
    guard sequence > newestFinished else { return .skip }
    if let undecodable { return .write(keepingAside: undecodable) }
    switch contents {
    case .unreadable:
      return nil
    case .bytes(let bytes) where isWatchVerified && isWatchActive && bytes == data:
      return .skip
    case .bytes, .unknown:
      return .write(keepingAside: nil)
    }
  }

  /// The file, last found unreadable, was read again before write `sequence`.
  ///
  /// Still unreadable, it is not overwritten. Readable, with a value nobody loaded, it is
  /// played back instead of being overwritten; empty or gone, it is written.
  mutating func fileCheckedBeforeWriting(
    _ read: Result<Data?, any Error>,
    sequence: UInt64,
    data: Data,
    thread: UInt
  ) -> (WriteDecision, [Effect]) {
    switch read {
    case .failure(let error):
      contents = .unreadable(error)
      return (.fail(UnreadableFileError(url: url, cause: error)), [])
    case .success(let bytes) where FileContents.holdsNoValue(bytes):
      contents = .bytes(bytes)
      return (writeDecision(for: data, sequence: sequence) ?? .skip, [])
    case .success(let bytes):
      contents = .bytes(bytes)
      return (.fail(UnreadableFileError(url: url, cause: nil)), changedExternally(read, thread))
    }
  }

  /// A write taken from the throttle finished, with the file's lock held.
  ///
  /// - Parameters:
  ///   - bytes: Its encoded bytes, if encoding succeeded.
  ///   - wrote: Whether the bytes were written to the file.
  mutating func writeFinished(
    _ ticket: WriteThrottle.Ticket,
    bytes: Data?,
    wrote: Bool,
    result: Result<Void, any Error>,
    thread: UInt
  ) -> [Effect] {
    if wrote, let bytes {
      contents = .bytes(bytes)
      undecodable = nil
      changeUnderWrites = nil
    }
    newestFinished = max(newestFinished, ticket.sequence)
    if ticket.sequence > lastResultSequence {
      (lastResult, lastResultSequence) = (result, ticket.sequence)
    }
    inFlight.remove(ticket.sequence)
    var effects = unregisterIfIdle()
    effects.append(.resume(ticket.write.continuations, result))
    let oldest = inFlight.min() ?? .max
    let finished = flushes.filter { $0.through < oldest }
    if !finished.isEmpty {
      flushes.removeAll { $0.through < oldest }
      effects.append(.finishFlushes(finished.map(\.done)))
    }
    if let after = playsBackWritesAfter, ticket.sequence > after, case .success = result,
      let bytes
    {
      playsBackWritesAfter = nil
      effects += enqueuePlayback(.success(bytes), thread: thread)
    }
    // NB: Played back last, so that the newest playback carries what the file holds.
    if let change = changeUnderWrites, !hasWriteToLand {
      changeUnderWrites = nil
      effects += enqueuePlayback(change, thread: thread)
    }
    return effects + releaseIfUnused()
  }

  private mutating func registerPending() -> [Effect] {
    guard !isPending else { return [] }
    isPending = true
    return [.registerPending]
  }

  private mutating func unregisterIfIdle() -> [Effect] {
    guard isPending, isIdle else { return [] }
    isPending = false
    return [.unregisterPending]
  }

  // MARK: Coordinated changes

  /// The file was read, with every process's lock held, for a coordinated change: it is not
  /// played back, since the change starts from it and memory then takes the change's result.
  mutating func readForChange(_ read: Result<Data?, any Error>) {
    contents = FileContents(read)
  }

  /// A coordinated change wrote `bytes`, with the file's lock held.
  ///
  /// A playback under way may carry older contents to the shared values after the change
  /// reached them: the written bytes are then played back after it.
  mutating func changeWritten(_ bytes: Data, thread: UInt) -> [Effect] {
    contents = .bytes(bytes)
    undecodable = nil
    changeUnderWrites = nil
    guard playbacks.isBusy else { return [] }
    return enqueuePlayback(.success(bytes), thread: thread)
  }

  // MARK: Reading

  /// The bytes read from the file failed to decode: they are kept aside before it is
  /// overwritten.
  mutating func undecodable(_ data: Data) {
    undecodable = data
  }

  /// The bytes read from the file decoded: nothing needs keeping aside.
  mutating func decodable() {
    undecodable = nil
  }

  /// The file was read, with its lock held: for a load, or because it may have changed.
  ///
  /// Contents other than those last seen are a change made by someone else, played back to
  /// the subscribers, unless a write of ours is under way: it lands after the change, and
  /// the shared values already hold its value.
  ///
  /// - Parameter generation: The watch this read checks the file for, right after it started.
  mutating func fileRead(
    _ read: Result<Data?, any Error>,
    verifying generation: Int?,
    thread: UInt
  ) -> [Effect] {
    if let generation, case .active(generation, let watch) = watch, watch.isActive {
      isWatchVerified = true
    }
    if case .success(let data) = read, case .bytes(data) = contents { return [] }
    contents = FileContents(read)
    guard !subscribers.isEmpty else { return [] }
    guard !hasWriteToLand else {
      changeUnderWrites = read
      return []
    }
    return changedExternally(read, thread)
  }

  /// Someone else changed the file: the newer value wins over the pending one, and is played
  /// back.
  private mutating func changedExternally(
    _ read: Result<Data?, any Error>,
    _ thread: UInt
  ) -> [Effect] {
    let discarded = throttle.discardPending()
    playsBackWritesAfter = nil
    changeUnderWrites = nil
    var effects = unregisterIfIdle()
    if !discarded.isEmpty { effects.append(.resume(discarded, .success(()))) }
    return effects + enqueuePlayback(read, thread: thread)
  }

  // MARK: Watching and playing back

  /// A subscriber wants the file's changes; returns its identifier.
  mutating func subscribed(_ subscriber: @escaping FileSubscriber) -> (id: Int, [Effect]) {
    let id = nextSubscriberID
    nextSubscriberID += 1
    subscribers[id] = subscriber
    guard case .none = watch else { return (id, []) }
    watchGeneration += 1
    watch = .starting(generation: watchGeneration)
    return (id, [.startWatching(generation: watchGeneration)])
  }

  /// The watch asked for by ``Effect/startWatching(generation:)`` started.
  mutating func watchStarted(generation: Int, _ started: FileWatch) -> [Effect] {
    guard case .starting(generation) = watch else { return [.stopWatching(started)] }
    watch = .active(generation: generation, started)
    // NB: The file may have changed between being loaded and being watched.
    return [.checkFile(verifying: generation)]
  }

  /// A subscriber left.
  mutating func unsubscribed(_ id: Int) -> [Effect] {
    guard subscribers.removeValue(forKey: id) != nil, subscribers.isEmpty else { return [] }
    // NB: Unwatched, the file may change unnoticed: what it holds is no longer sure.
    isWatchVerified = false
    changeUnderWrites = nil
    var effects: [Effect] = []
    if case .active(_, let started) = watch { effects.append(.stopWatching(started)) }
    watch = .none
    return effects + releaseIfUnused()
  }

  private mutating func enqueuePlayback(
    _ result: Result<Data?, any Error>,
    thread: UInt
  ) -> [Effect] {
    guard !subscribers.isEmpty else { return [] }
    let playback = Playback(
      result: result,
      subscribers: subscribers.sorted { $0.key < $1.key }.map(\.value)
    )
    return playbacks.enqueue(playback, thread: thread).map { [.playBack($0)] } ?? []
  }

  /// `thread` finished delivering a playback.
  mutating func playbackFinished(thread: UInt) -> [Effect] {
    playbacks.finish(thread: thread).map { .playBack($0) } + releaseIfUnused()
  }
}
