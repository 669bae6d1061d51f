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
    let store = ThreadRecordingStore()
    let count = Shared(wrappedValue: 0, ThreadRecordingKey(store: store))
    let writers = 4
    let progress = Locked((started: false, writes: 0, isCallDone: false, finishedThreads: 0))
    // NB: The writers start during the call's own save, so that the call is the one saving
    //     while they write; they write until it returns, or up to a bound if it never does.
    store.duringFirstSave.withLock {
      $0 = {
        progress.withLock { $0.started = true }
        while progress.withLock({ $0.writes }) < writers * 10 { sched_yield() }
      }
    }
    for _ in 0..<writers {
      Thread.detachNewThread {
        while !progress.withLock({ $0.started }) { sched_yield() }
        for _ in 0..<20_000 where !progress.withLock({ $0.isCallDone }) {
          count.withLock { $0 += 1 }
          progress.withLock { $0.writes += 1 }
        }
        progress.withLock { $0.finishedThreads += 1 }
      }
    }
    Thread.detachNewThread {
      store.observedThread.withLock { $0 = ObjectIdentifier(Thread.current) }
      count.withLock { $0 += 1 }
      progress.withLock {
        $0.isCallDone = true
        $0.finishedThreads += 1
      }
    }
    try await withWatchdog(seconds: 60) {
      while progress.withLock({ $0.finishedThreads }) < writers + 1 { await Task.yield() }
    }
    #expect(store.savesOnObservedThread.withLock { $0 } <= 2)
    #expect(store.lastSaved.withLock { $0 } == count.wrappedValue)
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

/// Records the saves made on one thread, and the last value saved.
private final class ThreadRecordingStore: Sendable {
  let observedThread = Locked<ObjectIdentifier?>(nil)
  let savesOnObservedThread = Locked(0)
  let lastSaved = Locked<Int?>(nil)
  let duringFirstSave = Locked<(@Sendable () -> Void)?>(nil)
}

private struct ThreadRecordingKey: SharedKey {
  let store: ThreadRecordingStore
  var id: ObjectIdentifier { ObjectIdentifier(store) }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resumeReturningInitialValue()
  }

  func subscribe(
    context: LoadContext<Int>,
    subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    let thread = ObjectIdentifier(Thread.current)
    let isObserved = store.observedThread.withLock { $0 == thread }
    if isObserved {
      let saves = store.savesOnObservedThread.withLock { saves in
        saves += 1
        return saves
      }
      if saves == 1 {
        store.duringFirstSave.withLock { $0 }?()
      }
    }
    store.lastSaved.withLock { $0 = value }
    continuation.resume()
  }
}
