import SharingCore
import SharingDependencies
import Testing

@Suite struct IdentityTests {
  @Test func keysWithTheSameIdentityShareOneValue() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var first = 0
    @Shared(.test("count", store: store)) var second = 0
    $first.withLock { $0 = 3 }
    #expect(second == 3)
  }

  @Test func keysWithDifferentIdentitiesAreIndependent() {
    let store = TestStore<Int>()
    @Shared(.test("a", store: store)) var a = 0
    @Shared(.test("b", store: store)) var b = 0
    $a.withLock { $0 = 3 }
    #expect(b == 0)
  }

  @Test func identitiesWithEqualHashesAreComparedByValue() {
    @Shared(CollidingKey(name: "a")) var a = 0
    @Shared(CollidingKey(name: "b")) var b = 0
    @Shared(CollidingKey(name: "a")) var otherA = 0
    $a.withLock { $0 = 3 }
    #expect(b == 0)
    #expect(otherA == 3)
  }

  @Test func subscriptionIsCancelledWhenTheLastHolderGoesAway() {
    let store = TestStore<Int>()
    var first: Shared<Int>? = Shared(wrappedValue: 0, .test("count", store: store))
    var second: Shared<Int>? = Shared(wrappedValue: 0, .test("count", store: store))
    #expect(store.subscriberCount == 1)
    first = nil
    #expect(store.cancellationCount == 0)
    second = nil
    #expect(store.cancellationCount == 1)
    #expect(store.subscriberCount == 0)
    _ = (first, second)
  }

  @Test func aLoadThatNeverFinishesDoesNotKeepTheReferenceAlive() {
    let store = TestStore<Int>(5)
    store.setLoadBehavior(.deferred)
    var count: Shared<Int>? = Shared(wrappedValue: 0, .test("count", store: store))
    count = nil
    #expect(store.cancellationCount == 1)
    store.completeLoads()
    _ = count
  }

  @Test func derivedValuesKeepTheReferenceAlive() {
    let store = TestStore<Stats>()
    var stats: Shared<Stats>? = Shared(wrappedValue: Stats(), .test("stats", store: store))
    let count = stats!.count
    stats = nil
    #expect(store.cancellationCount == 0)
    count.withLock { $0 = 2 }
    #expect(store.value?.count == 2)
  }

  @Test func aNewReferenceIsLoadedAfterTheOldOneIsGone() {
    let store = TestStore<Int>()
    var first: Shared<Int>? = Shared(wrappedValue: 0, .test("count", store: store))
    first!.withLock { $0 = 5 }
    first = nil
    store.externalChange(6)
    let second = Shared(wrappedValue: 0, .test("count", store: store))
    #expect(second.wrappedValue == 6)
    #expect(store.loadCount == 2)
  }

  @Test func aDependencyScopeWithItsOwnRegistryDoesNotShare() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var outer = 1
    withDependencies {
      $0.persistentReferences = PersistentReferences()
    } operation: {
      @Shared(.test("count", store: store)) var inner = 1
      $inner.withLock { $0 = 2 }
    }
    #expect(outer == 1)
  }

}

/// A key whose identities all have the same hash.
private struct CollidingKey: SharedKey {
  struct ID: Hashable {
    let name: String
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
  }

  let name: String
  var id: ID { ID(name: name) }

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
    continuation.resume()
  }
}
