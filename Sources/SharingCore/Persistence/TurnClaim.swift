/// Who runs a job that hands on the latest value after changes made on many threads — saving
/// a persisted value through its key, yielding a value to a ``SharedValues`` sequence — and
/// when, as a state machine: one thread takes a turn at a time, each turn reading the latest
/// value, so the last value is handed on last; and no thread takes more than its own turn
/// plus one handed over to it, however long other threads keep changing the value.
///
/// A thread that changes the value while nobody takes a turn takes one. A change made during
/// that turn is handed over to the thread taking it, which takes one more when done. A change
/// made during that handed-over turn is not handed over again: it waits for the turn in
/// progress, and then its own is taken, covering the changes made while it waited.
///
/// It decides; ``runTurns(_:finishing:handingOverTo:)`` runs the turns outside the lock that
/// guards it: for saves (`KeyPersistence.didWrite()`), the changing thread waits and takes its
/// own turn (`Waiter` is a semaphore); for yields (``SharedValues``), a dispatched job takes
/// the waiting turn, so that no changing thread waits.
struct TurnClaim<Waiter> {
  private var phase = Phase.idle
  /// The thread taking turns, to tell its own changes made from inside a turn.
  private var runner: UInt = 0
  /// Whether a change was made that no turn begun after it will read.
  private var isPending = false
  /// The thread waiting to take a turn after the turn in progress.
  private var waiter: (thread: UInt, waiter: Waiter)?

  private enum Phase {
    case idle
    /// The runner takes the turn of its own change.
    case ownTurn
    /// The runner takes a turn for the changes made during its own.
    case handedOverTurn
  }

  /// What a thread that changed the value does.
  enum ChangeAction {
    /// Take a turn now, then call ``turnFinished()``.
    case run
    /// Nothing: a turn that will read this change is running or waiting.
    case none
    /// Wait until woken through the waiter, then take a turn and call ``turnFinished()``.
    case waitThenRun(Waiter)
  }

  /// What the runner does after a turn.
  enum FinishAction {
    /// Take another turn, then call ``turnFinished()`` again.
    case runAgain
    /// Wake the waiting thread, which takes the next turn; stop.
    case handOver(Waiter)
    /// Stop.
    case done
  }

  /// Records a change made by `thread`.
  ///
  /// - Parameter makeWaiter: Makes what the thread waits on, if it must wait.
  mutating func changed(by thread: UInt, makeWaiter: () -> Waiter) -> ChangeAction {
    switch phase {
    case .idle:
      phase = .ownTurn
      runner = thread
      return .run
    case .ownTurn:
      isPending = true
      return .none
    case .handedOverTurn where thread == runner || waiter != nil:
      // The runner's own change, made from inside a turn, is handed on by the runner; a waiting
      // thread reads the value only once woken, so it hands on this change too.
      isPending = isPending || thread == runner
      return .none
    case .handedOverTurn:
      let waiter = makeWaiter()
      self.waiter = (thread, waiter)
      return .waitThenRun(waiter)
    }
  }

  /// Records that the runner's turn ended.
  mutating func turnFinished() -> FinishAction {
    if let waiter {
      self.waiter = nil
      phase = .ownTurn
      runner = waiter.thread
      isPending = false
      return .handOver(waiter.waiter)
    }
    guard isPending else {
      phase = .idle
      runner = 0
      return .done
    }
    isPending = false
    phase = .handedOverTurn
    return .runAgain
  }

  /// Takes a turn, then, as the claim decides after each, another one, or none while handing
  /// the next to the waiter through `handOver`.
  ///
  /// - Parameters:
  ///   - job: One turn: reads the latest value and hands it on. Called with no lock held.
  ///   - finish: Records that a turn ended, with the claim's lock held, and returns what to
  ///     do.
  ///   - handOver: Lets the waiter take the next turn.
  @inline(__always)
  static func runTurns(
    _ job: () -> Void,
    finishing finish: () -> FinishAction,
    handingOverTo handOver: (Waiter) -> Void
  ) {
    while true {
      job()
      switch finish() {
      case .runAgain:
        continue
      case .handOver(let next):
        handOver(next)
        return
      case .done:
        return
      }
    }
  }
}
