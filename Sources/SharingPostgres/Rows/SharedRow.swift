import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// One key's row, as every ``PostgresKey`` of that key in a database sees it: performs what
/// ``RowSync`` decides — writes, fetches and playbacks — outside its lock.
final class SharedRow: Sendable {
  typealias Subscriber = @Sendable (Result<StoredRow?, any Error>) -> Void
  /// Told how a write made with no save waiting on it (a failed one, made again) went.
  typealias WriteBack = @Sendable (Result<Void, any Error>) -> Void

  let key: String
  private let backend: any PostgresBackend
  private let scheduler: any WriteScheduler
  /// The serial queue of the database's playbacks: notifications, checks and reloads.
  private let playbackQueue: DispatchQueue
  private let pendingRows: PendingRows
  private let state: Locked<State>

  fileprivate struct State {
    var sync: RowSync
    var nextSubscriberID = 0
    var subscribers: [Int: Subscriber] = [:]
    var writeBacks: [Int: WriteBack] = [:]
    var isRegistered = false

    var sortedSubscribers: [Subscriber] {
      subscribers.sorted { $0.key < $1.key }.map(\.value)
    }

    var sortedWriteBacks: [WriteBack] {
      writeBacks.sorted { $0.key < $1.key }.map(\.value)
    }
  }

  init(
    key: String,
    backend: any PostgresBackend,
    scheduler: any WriteScheduler,
    throttle: Duration,
    playbackQueue: DispatchQueue,
    pendingRows: PendingRows
  ) {
    self.key = key
    self.backend = backend
    self.scheduler = scheduler
    self.playbackQueue = playbackQueue
    self.pendingRows = pendingRows
    self.state = Locked(State(sync: RowSync(interval: throttle)))
  }

  // MARK: Loading and playback

  /// Reads the row; an explicit load writes the pending change first.
  func load(
    writingPendingFirst: Bool,
    _ done: @escaping @Sendable (Result<StoredRow?, any Error>) -> Void
  ) {
    let read: @Sendable () -> Void = { [self] in
      let result = Result { try backend.fetch(key) }
      if case .success(let row) = result { state.withLock { $0.sync.loaded(row) } }
      done(result)
    }
    guard writingPendingFirst else { return read() }
    flush(read)
  }

  /// Calls `onChange` with the row each time another writer changes it, and `writeBack`
  /// with the outcome of each write of a failed value made again, until the returned closure
  /// is called. Checks the row at once, in case it changed since it was loaded.
  func subscribe(
    _ onChange: @escaping Subscriber,
    writeBack: @escaping WriteBack
  ) -> @Sendable () -> Void {
    let id = state.withLock { state in
      defer { state.nextSubscriberID += 1 }
      state.subscribers[state.nextSubscriberID] = onChange
      state.writeBacks[state.nextSubscriberID] = writeBack
      return state.nextSubscriberID
    }
    playbackQueue.async { [self] in fetchAndPlayBack() }
    return { [self] in
      state.withLock { state in
        state.subscribers[id] = nil
        state.writeBacks[id] = nil
      }
    }
  }

  var hasSubscribers: Bool {
    state.withLock { !$0.subscribers.isEmpty }
  }

  /// Handles a notification; call on the playback queue.
  func notified(version: Int64?) {
    guard state.withLock({ $0.sync.notified(version: version) }) else { return }
    fetchAndPlayBack()
  }

  /// Tells every subscriber that the row can no longer be followed.
  func connectionLost(_ error: PostgresError) {
    let subscribers = state.withLock { state in
      state.sync.connectionLost()
      return state.sortedSubscribers
    }
    for subscriber in subscribers { subscriber(.failure(error)) }
  }

  /// Writes what failed meanwhile, then checks the row; call on the playback queue once the
  /// table is listened to.
  func listening(afterLoss: Bool) {
    let (ticket, fetches) = state.withLock {
      $0.sync.listening(afterLoss: afterLoss, now: scheduler.now())
    }
    if let ticket { DispatchQueue.global().async { [self] in perform(ticket) } }
    if fetches { fetchAndPlayBack() }
  }

  /// Records that the row's value could not be decoded, so that it is kept before being
  /// overwritten.
  func markUndecodable() {
    state.withLock { $0.sync.markUndecodable() }
  }

  /// Fetches the row and plays it back if it is new to the program.
  private func fetchAndPlayBack() {
    guard hasSubscribers else { return }
    let result = Result { try backend.fetch(key) }
    guard case .success(let row) = result else {
      let subscribers = state.withLock { state in
        state.sync.fetchFailed()
        return state.sortedSubscribers
      }
      for subscriber in subscribers { subscriber(result) }
      return
    }
    let (playsBack, discarded, subscribers) = state.withLock { state in
      let (playsBack, discarded) = state.sync.fetched(row)
      return (playsBack, discarded, state.sortedSubscribers)
    }
    for continuation in discarded { continuation.resume() }
    guard playsBack else { return }
    for subscriber in subscribers { subscriber(.success(row)) }
    state.withLock { $0.sync.endPlayback() }
  }

  // MARK: Saving

  /// Saves a value: throttled after a change, at once when asked.
  func save(
    _ encode: @escaping @Sendable () throws -> Data,
    immediately: Bool,
    continuation: SaveContinuation
  ) {
    let change = RowSync.Pending(encode: encode, continuations: [continuation], isImmediate: false)
    let now = scheduler.now()
    if immediately {
      let ticket = state.withLock { state in
        state.register(self, in: pendingRows)
        return state.sync.enqueueImmediate(change, now: now)
      }
      // NB: Off the caller's thread: it may be one of the cooperative pool's.
      if let ticket { DispatchQueue.global().async { [self] in perform(ticket) } }
      return
    }
    let (enqueued, lastResult) = state.withLock { state in
      state.register(self, in: pendingRows)
      return (state.sync.enqueue(change, now: now), state.sync.lastResult)
    }
    // NB: A replaced value is never written: its saves end with the last write's outcome.
    for continuation in enqueued.superseded { continuation.resume(with: lastResult) }
    if let delay = enqueued.delay { schedule(after: delay) }
  }

  /// Writes the pending change now, on the calling thread, and calls `done` once no write is
  /// pending or under way.
  func flush(_ done: @escaping @Sendable () -> Void) {
    let (ticket, isIdle) = state.withLock { $0.sync.flush(now: scheduler.now(), done: done) }
    if let ticket { perform(ticket) }
    if isIdle { done() }
  }

  private func schedule(after delay: Duration) {
    scheduler.schedule(after: delay) { [self] in
      let ticket = state.withLock { $0.sync.takeScheduled(now: scheduler.now()) }
      if let ticket { perform(ticket) }
    }
  }

  private func scheduleRetry(after delay: Duration) {
    scheduler.schedule(after: delay) { [self] in
      let ticket = state.withLock { $0.sync.retryTimeCame(now: scheduler.now()) }
      if let ticket { perform(ticket) }
    }
  }

  /// Writes, then goes on with what the write's end asks for.
  private func perform(_ ticket: RowSync.Ticket) {
    var ticket = ticket
    while true {
      let result = Result {
        try backend.write(key, json: ticket.pending.encode(), keepsAside: ticket.keepsAside)
      }
      let (after, writeBacks) = state.withLock { state in
        let after = state.sync.finishWrite(ticket, result: result, now: scheduler.now())
        state.unregisterIfIdle(self, from: pendingRows)
        return (after, ticket.pending.isRetry ? state.sortedWriteBacks : [])
      }
      for continuation in ticket.pending.continuations {
        continuation.resume(with: result.map { _ in () })
      }
      for writeBack in writeBacks { writeBack(result.map { _ in () }) }
      for waiter in after.waiters { waiter() }
      if after.fetches { playbackQueue.async { [self] in fetchAndPlayBack() } }
      if let delay = after.scheduleAfter { schedule(after: delay) }
      if let delay = after.retryAfter { scheduleRetry(after: delay) }
      guard let next = after.next else { return }
      ticket = next
    }
  }

  // MARK: Transactions

  /// Runs a change as a transaction of the row; see
  /// ``/SharingCore/CoordinatedSharedKey/withTransaction(_:_:)``.
  ///
  /// - Parameters:
  ///   - current: The value in memory, encoded; inserted if there is no row.
  ///   - body: Changes the value, given the locked row unless it was just inserted, and
  ///     returns the new value, encoded.
  func transaction(
    current: Data,
    _ body: (_ stored: StoredRow?) throws -> Data
  ) throws {
    let result = Result {
      try backend.transaction(key, inserting: current) { row, inserted in
        try body(inserted ? nil : row)
      } willCommit: { version in
        state.withLock { $0.sync.willCommit(version) }
      }
    }
    _ = try result.get()
    // NB: A change still waiting for the throttle is older than the committed value, which
    //     it would overwrite.
    let superseded = state.withLock { $0.sync.transactionCommitted() }
    for continuation in superseded { continuation.resume() }
  }
}

extension SharedRow.State {
  mutating func register(_ row: SharedRow, in pendingRows: PendingRows) {
    guard !isRegistered else { return }
    isRegistered = true
    pendingRows.insert(row)
  }

  mutating func unregisterIfIdle(_ row: SharedRow, from pendingRows: PendingRows) {
    guard isRegistered, sync.isIdle else { return }
    isRegistered = false
    pendingRows.remove(row)
  }
}
