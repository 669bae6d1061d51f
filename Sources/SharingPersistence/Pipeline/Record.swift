package import Foundation
package import SharingCore
import SharingDependencies

/// One persisted record — a file, a row, a user defaults store — as every key of it in the
/// process sees it: feeds ``RecordStateMachine`` its events under a lock, and performs what
/// it decides after unlocking, with the I/O its store supplies.
///
/// No lock is held while encoding values, doing I/O, or calling continuations and
/// subscribers.
package final class Record<IO: RecordIO>: FlushableRecord {
  package typealias Stamp = IO.Stamp

  /// Where the record's writes are made.
  package enum WriteThread {
    /// On the thread that asks: the first change of a quiet period is on the store before
    /// `withLock` returns.
    case calling
    /// On a thread of the system's for an explicit save, which may be asked for from the
    /// cooperative pool (on Linux, one awaited off the main thread is made on the thread
    /// that asks), and for a change when no interval applies; others on the scheduler's: for
    /// stores whose writes wait on a network.
    case scheduled
  }

  package let io: IO
  private let scheduler: any WriteScheduler
  private let pendingWrites: PendingWrites
  private let writeThread: WriteThread
  /// Whether the read that checks the store once it is watched is made on a thread of the
  /// system's, rather than on the thread that subscribed: for stores on a network, so that
  /// creating a shared value never waits on it.
  private let verifiesWatchInBackground: Bool
  /// Whether others' changes are read through the scheduler, rather than on the thread that
  /// noticed them: a test's virtual store decides when they are.
  private let schedulesPlayback: Bool
  private let onRelease: @Sendable (Record) -> Void
  /// The record's state, under its lock; `Record+Transaction.swift` feeds it too.
  let state: Locked<State>

  struct State {
    var machine: RecordStateMachine<Stamp>
    var subscribers: [Int: Subscriber] = [:]
    var nextSubscriberID = 0
    var watch: (any RecordWatch)?
    /// The threads of the delivery and of the transaction under way, if any: a load made on
    /// one of them cannot wait for it to end.
    var deliveringThread: pthread_t?
    var transactingThread: pthread_t?
  }

  package init(
    io: IO,
    machine: RecordStateMachine<Stamp>,
    scheduler: any WriteScheduler,
    pendingWrites: PendingWrites,
    writeThread: WriteThread = .calling,
    verifiesWatchInBackground: Bool = false,
    schedulesPlayback: Bool = false,
    onRelease: @escaping @Sendable (Record) -> Void = { _ in }
  ) {
    self.io = io
    self.scheduler = scheduler
    self.pendingWrites = pendingWrites
    self.writeThread = writeThread
    self.verifiesWatchInBackground = verifiesWatchInBackground
    self.schedulesPlayback = schedulesPlayback
    self.onRelease = onRelease
    self.state = Locked(State(machine: machine))
  }

  // MARK: Holders

  /// Counts a key holding the record. Call with the registry's lock held, so that the record
  /// cannot be released between being found and being held.
  package func holderAdded() {
    state.withLock { $0.machine.holderAdded() }
  }

  package func holderRemoved() {
    run(state.withLock { $0.machine.holderRemoved() })
  }

  /// Whether the record may leave its registry, which then gives it no more holders.
  package func confirmRelease() -> Bool {
    state.withLock { $0.machine.confirmRelease() }
  }

  /// The state of the record's machine, for a test's failure message.
  package var stateDescription: String {
    state.withLock { "\($0.machine), subscribers: \($0.subscribers.count)" }
  }

  /// How many loads wait for a transaction, read or delivery under way to end.
  package var waitingLoads: Int {
    state.withLock { $0.machine.waitingLoads.count }
  }

  /// Whether no write is pending, under way, or failed.
  package var isIdle: Bool {
    state.withLock { $0.machine.isIdle }
  }

  // MARK: Saving

  /// Saves a change; `encode` is called only if it is written.
  ///
  /// - Parameter interval: The least time since the last write, if not the store's.
  package func save(
    _ encode: @escaping @Sendable () throws -> Data,
    urgency: WriteUrgency,
    interval: Duration? = nil,
    continuation: SaveContinuation? = nil
  ) {
    let write = PendingWrite(encode: encode, continuations: continuation.map { [$0] } ?? [])
    let now = scheduler.now()
    let actions = state.withLock {
      $0.machine.saved(write, urgency: urgency, interval: interval, now: now)
    }
    // An explicit save's write, taken now, may be made on this thread; a change's never is.
    let asked = urgency == .immediate ? actions.first { $0.ticket != nil }?.ticket : nil
    run(actions, askedWrite: asked?.sequence)
  }

  package func flush(_ done: @escaping @Sendable () -> Void) {
    let now = scheduler.now()
    run(state.withLock { $0.machine.flushRequested(now: now, done: done) })
  }

  /// Writes the pending value now, and waits for every write taken until then.
  package func flushAndWait() {
    PendingWrites.flushAndWait([self])
  }

  // MARK: Reading

  package func markUndecodable(_ contents: Data) {
    state.withLock { $0.machine.markUndecodable(contents) }
  }

  package func markDecodable() {
    state.withLock { $0.machine.markDecodable() }
  }

  /// Tells `subscriber` of others' changes until the returned closure is called.
  package func subscribe(_ subscriber: Subscriber) -> @Sendable () -> Void {
    let (id, actions) = state.withLock { state in
      let id = state.nextSubscriberID
      state.nextSubscriberID += 1
      state.subscribers[id] = subscriber
      return (id, state.machine.subscribed())
    }
    run(actions)
    return { [self] in
      run(
        state.withLock { state in
          guard state.subscribers.removeValue(forKey: id) != nil else { return [] }
          return state.machine.unsubscribed()
        }
      )
    }
  }

  /// Someone may have changed the record; `stamp` is its new stamp, if the notice tells it.
  package func changeNoticed(stamp: Stamp? = nil) {
    guard schedulesPlayback else {
      return run(state.withLock { $0.machine.changeNoticed(stamp: stamp) })
    }
    scheduler.schedule(after: .zero) { [weak self] in
      guard let self else { return }
      run(state.withLock { $0.machine.changeNoticed(stamp: stamp) })
    }
  }

  // MARK: Reaching the store

  /// The store can no longer be reached, because of `error`.
  package func becameUnreachable(because error: any Error) {
    decide { $0.becameUnreachable(because: error) }
  }

  /// The store can be reached again, or for the first time.
  package func becameReachable(afterLoss: Bool) {
    let now = scheduler.now()
    run(state.withLock { $0.machine.becameReachable(afterLoss: afterLoss, now: now) })
  }

  // MARK: Actions

  /// Feeds an event that may decide to deliver a value — a read's end, a check before
  /// writing, the loss of the store — and reads each subscriber's mark if it does, under the
  /// same lock: a change the program makes after the decision is newer than what is
  /// delivered, and the shared value keeps it (``Subscriber/mark``). Then performs what the
  /// event decided.
  private func decide(
    askedWrite: UInt64? = nil,
    _ event: (inout RecordStateMachine<Stamp>) -> [RecordAction<Stamp>]
  ) {
    let (actions, marks) = state.withLock { state -> ([RecordAction<Stamp>], [Int: UInt64]) in
      let actions = event(&state.machine)
      guard actions.contains(where: { $0.isDelivery }) else { return (actions, [:]) }
      return (actions, state.subscribers.compactMapValues { $0.mark?() })
    }
    run(actions, marks: marks, askedWrite: askedWrite)
  }

  /// Performs actions in order, with no lock held; a delivery hands each subscriber its
  /// mark in `marks`.
  ///
  /// - Parameter askedWrite: The sequence number of the write of an explicit save asked for
  ///   on this thread, if the actions may make it (see ``perform(_:askedWrite:_:)``).
  func run(
    _ actions: [RecordAction<Stamp>],
    marks: [Int: UInt64] = [:],
    askedWrite: UInt64? = nil
  ) {
    for action in actions {
      switch action {
      case .write(let ticket):
        perform(ticket, askedWrite: askedWrite) { [self] _ in write(ticket) }
      case .checkBeforeWriting(let ticket):
        perform(ticket, askedWrite: askedWrite) { [self] askedWrite in
          let read = Result { try io.read() }
          let cause: (any Error)? = if case .failure(let error) = read { error } else { nil }
          let refusal = io.refusal(cause: cause)
          let now = scheduler.now()
          decide(askedWrite: askedWrite) {
            $0.checkedBeforeWriting(ticket, read, refusal: refusal, now: now)
          }
        }
      case .schedule(let delay, let isRetry):
        scheduler.schedule(after: delay) { [self] in
          let now = scheduler.now()
          run(
            state.withLock {
              isRetry ? $0.machine.retryTimeCame(now: now) : $0.machine.scheduledTimeCame(now: now)
            }
          )
        }
      case .resume(let continuations, let result):
        for continuation in continuations { continuation.resume(with: result) }
      case .discard:
        break
      case .reportRetry(let result):
        for (_, subscriber) in sortedSubscribers() { subscriber.onRetry(result) }
      case .finishFlushes(let flushes):
        for done in flushes { done() }
      case .resumeLoads(let loads):
        for resume in loads { resume() }
      case .updatePending:
        pendingWrites.update(self)
      case .startWatching(let generation):
        startWatching(generation: generation)
      case .stopWatching:
        state.withLock { $0.watch.take() }?.stop()
      case .read(let ticket):
        let read = Result { try io.read() }
        decide { $0.readEnded(ticket, read) }
      case .deliver(let result):
        state.withLock { $0.deliveringThread = pthread_self() }
        for (id, subscriber) in sortedSubscribers() { subscriber.onChange(result, marks[id]) }
        run(endDelivery())
      case .release:
        onRelease(self)
      }
    }
  }

  /// Runs a write where ``writeThread`` says. A throttled one is taken by the scheduler, on
  /// its thread, or after another write, on that one's.
  ///
  /// On Linux the threads of the system's are the ones tasks run on: the write of an explicit
  /// save awaited off the main thread (`askedWrite`, the sequence number of its ticket) is
  /// made on the thread that asks, where sending it to another thread would only add a
  /// hand-over each way. Any other write of a store on a network is not: a change's, nor a
  /// save's taken after the write under way, whose thread then returns to its own caller.
  /// `work` is told the write asked for on its thread, if it runs on it.
  private func perform(
    _ ticket: WriteTicket,
    askedWrite: UInt64?,
    _ work: @escaping @Sendable (_ askedWrite: UInt64?) -> Void
  ) {
    guard case .scheduled = writeThread, ticket.isUrgent else { return work(askedWrite) }
    #if os(Linux)
      if ticket.sequence == askedWrite, !ticket.write.continuations.isEmpty,
        !isOnMainThread()
      {
        return work(askedWrite)
      }
    #endif
    DispatchQueue.global().async { work(nil) }
  }

  private func write(_ ticket: WriteTicket) {
    // Encoded here, outside every lock, and only for a value that is written: values
    // superseded while the throttle waited were never encoded.
    let outcome: WriteOutcome<Stamp>
    do {
      let contents = try ticket.write.encode()
      if case .some(contents) = ticket.unchangedContents,
        state.withLock({ $0.watch?.isLive ?? false })
      {
        outcome = .skipped
      } else {
        let stamp = try io.write(contents, keepingAside: ticket.keepingAside)
        outcome = .wrote(stamp, contents: contents)
      }
    } catch {
      outcome = .failed(error)
    }
    let now = scheduler.now()
    run(state.withLock { $0.machine.writeEnded(ticket, outcome, now: now) })
  }

  private func startWatching(generation: Int) {
    // Started without the lock: the store may report that it cannot watch.
    let watch = io.watch { [weak self] stamp in self?.changeNoticed(stamp: stamp) }
    let actions = state.withLock { state -> [RecordAction<Stamp>]? in
      guard let actions = state.machine.watchStarted(generation: generation) else { return nil }
      state.watch = watch
      return actions
    }
    guard let actions else { return watch.stop() }
    guard verifiesWatchInBackground else { return run(actions) }
    DispatchQueue.global().async { [self] in run(actions) }
  }

  /// Ends the delivery under way: its thread is no longer busy with it.
  func endDelivery() -> [RecordAction<Stamp>] {
    state.withLock { state in
      state.deliveringThread = nil
      return state.machine.deliveryEnded()
    }
  }

  private func sortedSubscribers() -> [(id: Int, subscriber: Subscriber)] {
    state.withLock { $0.subscribers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
  }
}
