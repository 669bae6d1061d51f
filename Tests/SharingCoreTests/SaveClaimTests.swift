import Foundation
import SharingDependencies
import TestSupport
import Testing

@testable import SharingCore

/// The rules of who saves, as sequences of events; threads are numbers, waiters names.
@Suite struct SaveClaimTests {
  @Test func aWriteWhileNobodySavesIsSavedByItsThread() {
    var claim = SaveClaim<String>()
    #expect(claim.write(by: 1) { "1" }.isSave)
    #expect(claim.saveFinished().isDone)
  }

  @Test func writesDuringTheOwnSaveAreHandedOverAsOneSave() {
    var claim = SaveClaim<String>()
    _ = claim.write(by: 1) { "1" }
    #expect(claim.write(by: 2) { "2" }.isNone)
    #expect(claim.write(by: 3) { "3" }.isNone)
    #expect(claim.saveFinished().isSaveAgain)
    #expect(claim.saveFinished().isDone)
  }

  @Test func aWriteDuringAHandedOverSaveWaitsForItAndIsSavedByItsThread() {
    var claim = SaveClaim<String>()
    _ = claim.write(by: 1) { "1" }
    _ = claim.write(by: 2) { "2" }
    #expect(claim.saveFinished().isSaveAgain)
    #expect(claim.write(by: 3) { "3" }.waiter == "3")
    #expect(claim.write(by: 4) { "4" }.isNone)
    #expect(claim.saveFinished().handedOverTo == "3")
    #expect(claim.write(by: 5) { "5" }.isNone)
    #expect(claim.saveFinished().isSaveAgain)
    #expect(claim.saveFinished().isDone)
  }

  @Test func aWriteTheSaverMakesFromInsideASaveIsSavedByIt() {
    var claim = SaveClaim<String>()
    _ = claim.write(by: 1) { "1" }
    _ = claim.write(by: 2) { "2" }
    #expect(claim.saveFinished().isSaveAgain)
    #expect(claim.write(by: 1) { "1" }.isNone)
    #expect(claim.saveFinished().isSaveAgain)
    #expect(claim.saveFinished().isDone)
  }

  @Test func aCallSavesAtMostItsOwnChangeAndOneHandedOverWhileOthersKeepWriting() async throws {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    let writers = 4
    let progress = Locked(
      (observed: nil as ObjectIdentifier?, observedSaves: 0, started: false, writes: 0)
    )
    let finished = Locked((isCallDone: false, threads: 0))
    // NB: The writers start during the call's own save, so that the call is the one saving
    //     while they write; they write until it returns, or up to a bound if it never does.
    store.setOnSave { _ in
      let thread = ObjectIdentifier(Thread.current)
      let isFirstObservedSave = progress.withLock { progress in
        guard progress.observed == thread else { return false }
        progress.observedSaves += 1
        progress.started = true
        return progress.observedSaves == 1
      }
      guard isFirstObservedSave else { return }
      while progress.withLock({ $0.writes }) < writers * 10 { sched_yield() }
    }
    for _ in 0..<writers {
      Thread.detachNewThread {
        while !progress.withLock({ $0.started }) { sched_yield() }
        for _ in 0..<20_000 where !finished.withLock({ $0.isCallDone }) {
          count.withLock { $0 += 1 }
          progress.withLock { $0.writes += 1 }
        }
        finished.withLock { $0.threads += 1 }
      }
    }
    Thread.detachNewThread {
      progress.withLock { $0.observed = ObjectIdentifier(Thread.current) }
      count.withLock { $0 += 1 }
      finished.withLock {
        $0.isCallDone = true
        $0.threads += 1
      }
    }
    try await withWatchdog(seconds: 60) {
      while finished.withLock({ $0.threads }) < writers + 1 { await Task.yield() }
    }
    #expect(progress.withLock { $0.observedSaves } <= 2)
    #expect(store.value == count.wrappedValue)
  }
}

extension SaveClaim.WriteAction {
  fileprivate var isSave: Bool { if case .save = self { true } else { false } }
  fileprivate var isNone: Bool { if case .none = self { true } else { false } }
  fileprivate var waiter: Waiter? {
    if case .waitThenSave(let waiter) = self { waiter } else { nil }
  }
}

extension SaveClaim.FinishAction {
  fileprivate var isSaveAgain: Bool { if case .saveAgain = self { true } else { false } }
  fileprivate var isDone: Bool { if case .done = self { true } else { false } }
  fileprivate var handedOverTo: Waiter? {
    if case .handOver(let waiter) = self { waiter } else { nil }
  }
}
