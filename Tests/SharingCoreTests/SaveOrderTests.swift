import Foundation
import SharingCore
import SharingDependencies
import TestSupport
import Testing

/// A key that records what it is asked to save, and can run code in the middle of an
/// explicit save, as another thread writing at that moment would.
private final class RecordingStore: Sendable {
  let saved = Locked<[(value: Int, context: SaveContext)]>([])
  let duringExplicitSave = Locked<(@Sendable () -> Void)?>(nil)
}

private struct RecordingKey: SharedKey {
  let store: RecordingStore
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
    if context == .userInitiated {
      let interruption = store.duringExplicitSave.withLock { hook in
        defer { hook = nil }
        return hook
      }
      interruption?()
    }
    store.saved.withLock { $0.append((value, context)) }
    continuation.resume()
  }
}

@Suite struct SaveOrderTests {
  @Test func aWriteDuringAnExplicitSaveIsSavedAfterIt() async throws {
    let store = RecordingStore()
    let count = Shared(wrappedValue: 0, RecordingKey(store: store))
    count.withLock { $0 = 1 }
    store.duringExplicitSave.withLock { $0 = { count.withLock { $0 = 2 } } }
    try await count.save()
    let saved = store.saved.withLock { $0 }
    #expect(saved.last?.value == 2)
    #expect(saved.map(\.value) == [1, 2, 1, 2])
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
