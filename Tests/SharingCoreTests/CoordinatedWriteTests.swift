import Dispatch
import Observation
import SharingCore
import SharingDependencies
import TestSupport
import Testing

/// `withLock` on a value persisted by a ``CoordinatedSharedKey``: each change is a transaction
/// of the key's store.
@Suite struct CoordinatedWriteTests {
  @Test func withLockRunsTheChangeOnTheStoredValue() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    store.changeUnnoticed(to: 10)
    count.withLock { $0 += 1 }
    #expect(count.wrappedValue == 11)
    #expect(store.value == 11)
    #expect(store.transactionCount == 1)
  }

  @Test func withLockSavesNothingAfterTheTransaction() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    count.withLock { $0 += 1 }
    count.withLock { $0 += 1 }
    #expect(store.saveCount == 0)
    #expect(store.transactionCount == 2)
  }

  @Test func withLockReturnsTheResultOfItsBody() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    let doubled = count.withLock { value -> Int in
      value += 1
      return value * 2
    }
    #expect(doubled == 2)
  }

  @Test func observationSeesEachCoordinatedChangeOnce() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    let changes = Locked(0)
    withObservationTracking {
      _ = count.wrappedValue
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    count.withLock { $0 += 1 }
    #expect(changes.withLock { $0 } == 1)
  }

  @Test func valuesSeeEachCoordinatedChangeOnce() async throws {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    try await withWatchdog {
      var iterator = count.values.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      count.withLock { $0 += 1 }
      #expect(await iterator.next() == 1)
      count.withLock { $0 += 1 }
      #expect(await iterator.next() == 2)
      // NB: Had a change been delivered twice, the next element would repeat it.
      count.withLock { $0 += 1 }
      #expect(await iterator.next() == 3)
    }
  }

  @Test func aDerivedValueWritesThroughTheTransaction() {
    let store = TransactionStore(Stats())
    let stats = Shared(wrappedValue: Stats(), TransactionKey("stats", store: store))
    store.changeUnnoticed(to: Stats(count: 5))
    stats.count.withLock { $0 += 1 }
    #expect(store.value.count == 6)
    #expect(stats.wrappedValue.count == 6)
    #expect(store.transactionCount == 1)
  }

  @Test func everyHolderOfTheKeyWritesThroughTheTransaction() {
    let store = TransactionStore(0)
    let first = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    let second = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    first.withLock { $0 += 1 }
    second.withLock { $0 += 1 }
    #expect(store.transactionCount == 2)
    #expect(first.wrappedValue == 2)
  }

  @Test func aStoreFailingBeforeTheChangeLeavesMemoryAndSetsSaveError() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    store.failure = .beforeBody
    let result = count.withLock { value -> Int in
      value += 1
      return value
    }
    #expect(result == 1)
    #expect(count.wrappedValue == 0)
    #expect(store.value == 0)
    #expect(count.saveError is TransactionFailure)
  }

  @Test func aStoreFailingAfterTheChangeLeavesMemoryAndSetsSaveError() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    store.failure = .afterBody
    count.withLock { $0 += 1 }
    #expect(count.wrappedValue == 0)
    #expect(store.value == 0)
    #expect(count.saveError is TransactionFailure)
  }

  @Test func aSuccessfulTransactionClearsSaveError() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    store.failure = .beforeBody
    count.withLock { $0 += 1 }
    store.failure = nil
    count.withLock { $0 += 1 }
    #expect(count.saveError == nil)
    #expect(count.wrappedValue == 1)
  }

  @Test func aFailedTransactionNotifiesNoObserver() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    let changes = Locked(0)
    withObservationTracking {
      _ = count.wrappedValue
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    store.failure = .afterBody
    count.withLock { $0 += 1 }
    #expect(changes.withLock { $0 } == 0)
  }

  @Test func aThrowingChangeStoresNothingAndKeepsSaveError() {
    struct Refused: Error {}
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    #expect(throws: Refused.self) {
      try count.withLock { (value: inout Int) throws(Refused) in
        value += 1
        throw Refused()
      }
    }
    #expect(count.wrappedValue == 0)
    #expect(store.value == 0)
    #expect(count.saveError == nil)
  }

  @Test func changesFromManyThreadsLoseNothing() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<100 { count.withLock { $0 += 1 } }
    }
    #expect(count.wrappedValue == 400)
    #expect(store.value == 400)
  }

  @Test func aWithLockNestedInATransactionIsReported() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, TransactionKey("count", store: store))
    withKnownIssue {
      count.withLock { value in
        value += 1
        count.withLock { $0 += 10 }
      }
    }
    #expect(count.wrappedValue == 1)
  }

  @Test func aPlainKeyStillSavesAfterTheChange() {
    let store = TransactionStore(0)
    let count = Shared(wrappedValue: 0, PlainKey(base: TransactionKey("count", store: store)))
    count.withLock { $0 += 1 }
    #expect(store.transactionCount == 0)
    #expect(store.saveCount == 1)
  }
}

/// Why a ``TransactionStore`` failed.
private struct TransactionFailure: Error {}

/// A store that runs transactions under its own lock, as a database would.
private final class TransactionStore<Value: Sendable>: Sendable {
  enum Failure { case beforeBody, afterBody }

  private struct State {
    var value: Value
    var transactions = 0
    var saves = 0
    var failure: Failure?
  }

  private let state: Locked<State>
  /// Held for a whole transaction, as a row lock would be.
  private let transactionLock = Locked(())

  init(_ value: Value) {
    self.state = Locked(State(value: value))
  }

  var value: Value { state.withLock { $0.value } }
  var transactionCount: Int { state.withLock { $0.transactions } }
  var saveCount: Int { state.withLock { $0.saves } }
  var failure: Failure? {
    get { state.withLock { $0.failure } }
    set { state.withLock { $0.failure = newValue } }
  }

  /// Changes the stored value as another process would, without telling anyone.
  func changeUnnoticed(to value: Value) {
    state.withLock { $0.value = value }
  }

  func transaction(_ value: inout Value, _ body: (inout Value) throws -> Void) throws {
    try transactionLock.withLock { _ in
      let (stored, failure) = state.withLock { ($0.value, $0.failure) }
      if failure == .beforeBody { throw TransactionFailure() }
      var changed = stored
      try body(&changed)
      if failure == .afterBody { throw TransactionFailure() }
      state.withLock {
        $0.value = changed
        $0.transactions += 1
      }
      value = changed
    }
  }

  func save(_ value: Value) {
    state.withLock {
      $0.value = value
      $0.saves += 1
    }
  }
}

/// A coordinated key of a ``TransactionStore``.
private struct TransactionKey<Value: Sendable>: CoordinatedSharedKey {
  let name: String
  let store: TransactionStore<Value>

  init(_ name: String, store: TransactionStore<Value>) {
    self.name = name
    self.store = store
  }

  struct ID: Hashable {
    let name: String
    let store: ObjectIdentifier
  }

  var id: ID { ID(name: name, store: ObjectIdentifier(store)) }

  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resume(returning: store.value)
  }

  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    store.save(value)
    continuation.resume()
  }

  func withTransaction(_ value: inout Value, _ body: (inout Value) throws -> Void) throws {
    try store.transaction(&value, body)
  }
}

/// The same store through a key that is not coordinated.
private struct PlainKey<Value: Sendable>: SharedKey {
  let base: TransactionKey<Value>

  struct ID: Hashable {
    let base: TransactionKey<Value>.ID
  }

  var id: ID { ID(base: base.id) }

  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }

  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}
