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
  /// Whether an explicit save runs that code before it reads the value, rather than after.
  let interruptsBeforeReading: Bool

  init(interruptsBeforeReading: Bool = false) {
    self.interruptsBeforeReading = interruptsBeforeReading
  }
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
    if !store.interruptsBeforeReading { interrupt(context) }
    store.saved.withLock { $0.append((value, context)) }
    continuation.resume()
  }

  func save(
    reading value: @escaping @Sendable () -> Int,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    if store.interruptsBeforeReading { interrupt(context) }
    save(value(), context: context, continuation: continuation)
  }

  private func interrupt(_ context: SaveContext) {
    guard context == .userInitiated else { return }
    let interruption = store.duringExplicitSave.withLock { hook in
      defer { hook = nil }
      return hook
    }
    interruption?()
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

  @Test func aWriteMadeBeforeAnExplicitSaveReadsTheValueIsNotSavedAgainAfterIt() async throws {
    let store = RecordingStore(interruptsBeforeReading: true)
    let count = Shared(wrappedValue: 0, RecordingKey(store: store))
    store.duringExplicitSave.withLock { $0 = { count.withLock { $0 = 1 } } }
    try await count.save()
    let saved = store.saved.withLock { $0 }
    // The write's own save, then the explicit save, which read the write: nothing is left to save.
    #expect(saved.map(\.value) == [1, 1])
    #expect(saved.map(\.context) == [.didSet, .userInitiated])
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
