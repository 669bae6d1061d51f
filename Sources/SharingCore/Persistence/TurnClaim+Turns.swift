import Dispatch

extension TurnClaim where Waiter == DispatchSemaphore {
  /// Records a change made by `thread`; a thread that must wait does so on a semaphore.
  @inline(__always)
  mutating func changed(by thread: UInt) -> ChangeAction {
    changed(by: thread) { DispatchSemaphore(value: 0) }
  }

  /// Takes the turns a change made by the calling thread gives it, as the claim decides:
  /// none; or its own, after waiting for the turn in progress if told to, and at most one
  /// handed over to it.
  ///
  /// > Important: A thread told to wait blocks until the turn in progress ends: `job` must
  /// > not wait for a lock or a thread that the calling thread may hold or be.
  ///
  /// - Parameters:
  ///   - claim: Records the change, with the claim's lock held, and returns what to do.
  ///   - job: One turn: reads the latest value and hands it on. Called with no lock held.
  ///   - finish: Records that a turn ended, with the claim's lock held, and returns what to
  ///     do.
  @inline(__always)
  static func takeTurns(
    claiming claim: () -> ChangeAction,
    _ job: () -> Void,
    finishing finish: () -> FinishAction
  ) {
    switch claim() {
    case .none:
      return
    case .waitThenRun(let turn):
      turn.wait()
    case .run:
      break
    }
    runTurns(job, finishing: finish, handingOverTo: { $0.signal() })
  }
}

extension TurnClaim {
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
