import Foundation
import SharingCore
import SharingDependencies

/// Everything ``FileStorage`` knows about one file: the bytes it last saw there, the
/// throttled write waiting to happen, undecodable bytes to keep, and who watches it.
///
/// A change made while an external one is played back may reach the shared values before
/// it, so they would hold the external value while the file gets the change: the write that
/// carries the change is played back too, once it lands and the playback has ended.
///
/// Two locks, always taken in this order: `writeLock` serialises touching the file (writes,
/// and reads made to detect external changes, so that a read never sees a write half done
/// relative to `known`); `state` guards the bookkeeping. Neither is held while encoding
/// values or calling continuations and subscribers.
final class StoredFile: Sendable {
  let url: URL
  private let backend: any FileSystemBackend
  private let scheduler: any WriteScheduler
  /// The least time between two throttled writes, unless a change asks for its own.
  private let throttle: Duration
  /// Whether changes the backend notices are played back through the scheduler, rather than
  /// on the thread that noticed them.
  private let schedulesPlayback: Bool
  private let pendingFiles: PendingFiles
  private let writeLock = Locked<UInt64>(0)
  private let state: Locked<State>

  private typealias Subscriber = @Sendable (Result<Data?, any Error>) -> Void

  private struct State {
    var throttle: WriteThrottle
    /// The bytes last seen in the file (`.some(nil)`: no file), to tell our own writes from
    /// external changes and to skip unchanged writes; `nil` when unknown.
    ///
    /// Loads and writes record them even when nobody watches: a subscription's first check
    /// compares the file with them, to play back a change made since the load, but not a
    /// write of ours landing while the watch starts. They are forgotten when the last
    /// subscriber leaves. A shared value subscribes for as long as it lives, and until its
    /// last write lands, so they are only kept past that by keys used on their own. Unwatched,
    /// the file may change unnoticed: they are trusted to skip a write only while it is
    /// watched.
    var known: Data??
    /// Bytes that failed to decode, kept in a sibling file before the file is overwritten.
    var undecodable: Data?
    /// The numbers of the writes taken from the throttle that have not finished.
    var inFlight: Set<UInt64> = []
    /// Flushes waiting for every write numbered up to `through` to finish.
    var flushes: [(through: UInt64, done: @Sendable () -> Void)] = []
    /// Whether the file is in `pendingFiles`, which it is from a change until it is idle.
    var isRegistered = false
    /// The outcome of the latest write, which saves of values never written report, and
    /// the number of that write.
    var lastResult: Result<Void, any Error> = .success(())
    var lastResultSequence: UInt64 = 0
    var writeCount = 0
    var encodeCount = 0
    var nextSubscriberID = 0
    var subscribers: [Int: Subscriber] = [:]
    /// Whether the file is watched, or its watch is being set up: while anyone subscribes.
    var isWatching = false
    /// Counts the watches set up, so that one whose subscribers left while it was being set
    /// up is told from the current one.
    var watchGeneration = 0
    /// Ends the watch, once it is set up.
    var stopWatching: (@Sendable () -> Void)?
    /// Playbacks under way: from dropping the pending write until every subscriber heard.
    var playbacks = 0
    /// Set when a change is saved during a playback: writes numbered after this carry it,
    /// and the first to land is played back.
    var echoesWritesAfter: UInt64?
    /// The bytes of such a write that landed during a playback, played back when it ends.
    var echo: Data?

    var sortedSubscribers: [Subscriber] {
      subscribers.sorted { $0.key < $1.key }.map(\.value)
    }

    var isIdle: Bool { inFlight.isEmpty && throttle.pending == nil }

    /// Notes a change saved during a playback, whose write must be played back.
    mutating func noteChangeDuringPlayback() {
      guard playbacks > 0, echoesWritesAfter == nil else { return }
      echoesWritesAfter = throttle.sequence
    }

    /// Adds the file to `pendingFiles` unless it is there already.
    mutating func register(_ file: StoredFile, in pendingFiles: PendingFiles) {
      guard !isRegistered else { return }
      isRegistered = true
      pendingFiles.insert(file)
    }

    /// Removes the file from `pendingFiles` once it is idle.
    mutating func unregisterIfIdle(_ file: StoredFile, from pendingFiles: PendingFiles) {
      guard isRegistered, isIdle else { return }
      isRegistered = false
      pendingFiles.remove(file)
    }

    /// The playback a landed write calls for, if it carries a change saved during a playback:
    /// at once, counted in `playbacks`, or when the playback under way ends.
    mutating func echo(
      of ticket: WriteThrottle.Ticket,
      written encoded: Result<Data, any Error>,
      result: Result<Void, any Error>
    ) -> (Data, [Subscriber])? {
      guard
        let after = echoesWritesAfter, ticket.sequence > after,
        case .success = result, case .success(let data) = encoded
      else { return nil }
      echoesWritesAfter = nil
      guard playbacks == 0 else {
        echo = data
        return nil
      }
      playbacks += 1
      return (data, sortedSubscribers)
    }

    /// Removes and returns the flushes that no unfinished write holds up.
    mutating func finishedFlushes() -> [@Sendable () -> Void] {
      guard !flushes.isEmpty else { return [] }
      let oldest = inFlight.min() ?? .max
      let (finished, waiting) = (
        flushes.filter { $0.through < oldest }, flushes.filter { $0.through >= oldest }
      )
      flushes = waiting
      return finished.map(\.done)
    }
  }

  init(
    url: URL,
    backend: any FileSystemBackend,
    scheduler: any WriteScheduler,
    throttle: Duration,
    schedulesPlayback: Bool,
    pendingFiles: PendingFiles
  ) {
    self.url = url
    self.backend = backend
    self.scheduler = scheduler
    self.throttle = throttle
    self.schedulesPlayback = schedulesPlayback
    self.pendingFiles = pendingFiles
    self.state = Locked(State(throttle: WriteThrottle(interval: throttle)))
  }

  /// The number of times the file was written.
  var writeCount: Int { state.withLock(\.writeCount) }

  /// The number of times a value was encoded to be written to the file.
  var encodeCount: Int { state.withLock(\.encodeCount) }

  /// The bytes known to be in the file, if any are kept.
  var knownBytes: Data?? { state.withLock(\.known) }

  // MARK: Reading

  /// Reads the file.
  func load() throws -> Data? {
    // NB: Read under the write lock, as changes are: never halfway through our own write.
    try writeLock.withLock { _ in
      let data = try backend.contents(of: url)
      state.withLock { state in
        if state.isIdle { state.known = .some(data) }
      }
      return data
    }
  }

  /// Marks the bytes in the file as undecodable, so that they are kept before the file is
  /// overwritten.
  func markUndecodable(_ data: Data) {
    state.withLock { $0.undecodable = data }
  }

  /// Marks the file as decodable again: nothing needs keeping.
  func markDecodable() {
    state.withLock { $0.undecodable = nil }
  }

  // MARK: Watching

  /// Calls `onChange` with the file's new contents whenever something else changes it.
  func subscribe(
    _ onChange: @escaping @Sendable (Result<Data?, any Error>) -> Void
  ) -> @Sendable () -> Void {
    let (id, generation) = state.withLock { state -> (Int, Int?) in
      defer { state.nextSubscriberID += 1 }
      state.subscribers[state.nextSubscriberID] = onChange
      guard !state.isWatching else { return (state.nextSubscriberID, nil) }
      state.isWatching = true
      state.watchGeneration += 1
      return (state.nextSubscriberID, state.watchGeneration)
    }
    let unsubscribe: @Sendable () -> Void = { [self] in
      let stop = state.withLock { state -> (@Sendable () -> Void)? in
        state.subscribers[id] = nil
        guard state.subscribers.isEmpty, state.isWatching else { return nil }
        state.isWatching = false
        // NB: Unwatched, the file may change unnoticed: what it holds is unknown again.
        state.known = nil
        defer { state.stopWatching = nil }
        return state.stopWatching
      }
      stop?()
    }
    guard let generation else { return unsubscribe }
    // NB: Set up without the lock: the backend may report that it cannot watch.
    let stop = backend.watch(url) { [weak self] in
      guard let self else { return }
      guard schedulesPlayback else { return fileMayHaveChanged() }
      scheduler.schedule(after: .zero) { [weak self] in self?.fileMayHaveChanged() }
    }
    let isCurrent = state.withLock { state in
      guard state.isWatching, state.watchGeneration == generation else { return false }
      state.stopWatching = stop
      return true
    }
    guard isCurrent else {
      stop()
      return unsubscribe
    }
    // NB: The file may have changed between being loaded and being watched.
    fileMayHaveChanged()
    return unsubscribe
  }

  private func fileMayHaveChanged() {
    // NB: Read under the write lock: a read racing our own write could otherwise see the old
    //     bytes after 'known' was updated, and play an outdated value back.
    let (result, subscribers, discarded) = writeLock.withLock { written in
      let result = Result { try backend.contents(of: url) }
      return state.withLock {
        state -> (Result<Data?, any Error>, [Subscriber]?, [SaveContinuation]) in
        guard state.stopWatching != nil else { return (result, nil, []) }
        if case .success(let data) = result {
          guard state.known != .some(data) else { return (result, nil, []) }
          state.known = .some(data)
        } else {
          state.known = nil
        }
        // NB: A write of ours, taken before the change and waiting for this lock, lands
        //     after it: the file ends up holding our value, which the shared values already
        //     hold, so playing the change back would leave them behind the file.
        guard state.throttle.sequence <= written else { return (result, nil, []) }
        // NB: The file changed after the pending value was set: the newer, external value
        //     wins, rather than being overwritten by the older one.
        let discarded = state.throttle.discardPending()
        state.echoesWritesAfter = nil
        state.unregisterIfIdle(self, from: pendingFiles)
        state.playbacks += 1
        return (result, state.sortedSubscribers, discarded)
      }
    }
    for continuation in discarded { continuation.resume() }
    if let subscribers { playBack(result, to: subscribers) }
  }

  /// Calls the subscribers of a playback already counted in `playbacks`, then plays back the
  /// write of a change saved meanwhile, if it landed.
  private func playBack(_ result: Result<Data?, any Error>, to subscribers: [Subscriber]) {
    var (result, subscribers) = (result, subscribers)
    while true {
      for subscriber in subscribers { subscriber(result) }
      let echo = state.withLock { state -> (Data, [Subscriber])? in
        state.playbacks -= 1
        guard state.playbacks == 0, let echo = state.echo else { return nil }
        state.echo = nil
        state.playbacks += 1
        return (echo, state.sortedSubscribers)
      }
      guard let echo else { return }
      (result, subscribers) = (.success(echo.0), echo.1)
    }
  }

  // MARK: Writing

  /// Saves a value: at once for ``SaveContext/userInitiated`` and for changes with a zero
  /// interval, throttled for other ``SaveContext/didSet`` changes.
  ///
  /// - Parameters:
  ///   - encode: Makes the bytes to write; only called if the value is written.
  ///   - interval: The least time between two throttled writes, if not the storage's.
  func save(
    _ encode: @escaping @Sendable () throws -> Data,
    context: SaveContext,
    interval: Duration? = nil,
    continuation: SaveContinuation
  ) {
    let write = PendingWrite(encode: encode, continuations: [continuation])
    let now = scheduler.now()
    if context == .userInitiated || (interval ?? throttle) == .zero {
      let ticket = state.withLock { state in
        state.noteChangeDuringPlayback()
        let ticket = state.throttle.takeImmediate(write, now: now)
        state.inFlight.insert(ticket.sequence)
        // NB: Registered too, so that program-wide flushes (and the one at exit) wait for it.
        state.register(self, in: pendingFiles)
        return ticket
      }
      return perform(ticket)
    }
    let (enqueued, lastResult) = state.withLock { state in
      state.noteChangeDuringPlayback()
      defer { state.register(self, in: pendingFiles) }
      return (state.throttle.enqueue(write, now: now, interval: interval), state.lastResult)
    }
    // NB: A replaced value is never written: its saves end with what the file last saw,
    //     so that a failed write's error stays until a later write succeeds.
    for continuation in enqueued.superseded { continuation.resume(with: lastResult) }
    guard let delay = enqueued.delay else { return }
    scheduler.schedule(after: delay) { [self] in
      let ticket = state.withLock { state in
        let ticket = state.throttle.takeScheduled(now: scheduler.now())
        if let ticket { state.inFlight.insert(ticket.sequence) }
        return ticket
      }
      if let ticket { perform(ticket) }
    }
  }

  /// Writes the pending value now, if any, on the calling thread, then calls `done` once
  /// every write taken before has finished.
  func flush(_ done: @escaping @Sendable () -> Void) {
    let (ticket, through) = state.withLock { state in
      let ticket = state.throttle.takePending(now: scheduler.now())
      if let ticket { state.inFlight.insert(ticket.sequence) }
      return (ticket, state.throttle.sequence)
    }
    if let ticket { perform(ticket) }
    let isDone = state.withLock { state in
      guard state.inFlight.contains(where: { $0 <= through }) else { return true }
      state.flushes.append((through, done))
      return false
    }
    if isDone { done() }
  }

  private func perform(_ ticket: WriteThrottle.Ticket) {
    // NB: Encoded here, outside every lock, and only for a value that is written: values
    //     superseded while the throttle waited were never encoded.
    let encoded = Result { try ticket.write.encode() }
    let result = Result {
      try writeLock.withLock { written in
        // NB: Counted even if encoding failed: no write of this ticket is coming.
        defer { written = max(written, ticket.sequence) }
        let data = try encoded.get()
        // NB: A newer value was written while this one was being encoded.
        guard ticket.sequence > written else { return }
        try replaceContents(with: data)
      }
    }
    let (flushes, echo) = state.withLock { state in
      state.encodeCount += 1
      if ticket.sequence > state.lastResultSequence {
        (state.lastResult, state.lastResultSequence) = (result, ticket.sequence)
      }
      state.inFlight.remove(ticket.sequence)
      state.unregisterIfIdle(self, from: pendingFiles)
      return (state.finishedFlushes(), state.echo(of: ticket, written: encoded, result: result))
    }
    for continuation in ticket.write.continuations { continuation.resume(with: result) }
    for done in flushes { done() }
    if let (data, subscribers) = echo { playBack(.success(data), to: subscribers) }
  }

  /// Writes the file, keeping undecodable bytes first, unless it is watched and already holds
  /// these bytes. Called with the write lock held.
  private func replaceContents(with data: Data) throws {
    let (known, undecodable, isWatching) = state.withLock {
      ($0.known, $0.undecodable, $0.isWatching)
    }
    if let undecodable {
      try CorruptFile.preserve(undecodable, of: url, in: backend)
      state.withLock { $0.undecodable = nil }
    } else if isWatching && known == .some(data) {
      return
    }
    // NB: Known before the write lands, so that a watch started meanwhile hears it as ours.
    state.withLock { $0.known = .some(data) }
    do {
      try backend.write(data, to: url)
      state.withLock { $0.writeCount += 1 }
    } catch {
      state.withLock { $0.known = known }
      throw error
    }
  }
}
