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
    let write = OneWriteAmongWriters()
    store.setOnSave { _ in write.turnTaken() }
    try await withWatchdog(seconds: 60) { await write.run(on: count) }
    #expect((1...2).contains(write.observedTurns))
    #expect(store.value == count.wrappedValue)
  }
}
