import Testing

@testable import SharingCore

/// The rules of who takes turns, as sequences of events; threads are numbers, waiters names.
@Suite struct TurnClaimTests {
  @Test func aChangeWhileNobodyTakesATurnIsRunByItsThread() {
    var claim = TurnClaim<String>()
    #expect(claim.changed(by: 1) { "1" }.isRun)
    #expect(claim.turnFinished().isDone)
  }

  @Test func changesDuringTheOwnTurnAreHandedOverAsOneTurn() {
    var claim = TurnClaim<String>()
    _ = claim.changed(by: 1) { "1" }
    #expect(claim.changed(by: 2) { "2" }.isNone)
    #expect(claim.changed(by: 3) { "3" }.isNone)
    #expect(claim.turnFinished().isRunAgain)
    #expect(claim.turnFinished().isDone)
  }

  @Test func aChangeDuringAHandedOverTurnWaitsForItAndIsRunByItsThread() {
    var claim = TurnClaim<String>()
    _ = claim.changed(by: 1) { "1" }
    _ = claim.changed(by: 2) { "2" }
    #expect(claim.turnFinished().isRunAgain)
    #expect(claim.changed(by: 3) { "3" }.waiter == "3")
    #expect(claim.changed(by: 4) { "4" }.isNone)
    #expect(claim.turnFinished().handedOverTo == "3")
    #expect(claim.changed(by: 5) { "5" }.isNone)
    #expect(claim.turnFinished().isRunAgain)
    #expect(claim.turnFinished().isDone)
  }

  @Test func aChangeTheRunnerMakesFromInsideATurnIsRunByIt() {
    var claim = TurnClaim<String>()
    _ = claim.changed(by: 1) { "1" }
    _ = claim.changed(by: 2) { "2" }
    #expect(claim.turnFinished().isRunAgain)
    #expect(claim.changed(by: 1) { "1" }.isNone)
    #expect(claim.turnFinished().isRunAgain)
    #expect(claim.turnFinished().isDone)
  }
}

extension TurnClaim.ChangeAction {
  fileprivate var isRun: Bool { if case .run = self { true } else { false } }
  fileprivate var isNone: Bool { if case .none = self { true } else { false } }
  fileprivate var waiter: Waiter? {
    if case .waitThenRun(let waiter) = self { waiter } else { nil }
  }
}

extension TurnClaim.FinishAction {
  fileprivate var isRunAgain: Bool { if case .runAgain = self { true } else { false } }
  fileprivate var isDone: Bool { if case .done = self { true } else { false } }
  fileprivate var handedOverTo: Waiter? {
    if case .handOver(let waiter) = self { waiter } else { nil }
  }
}
