import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

extension SharedKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var sharedCount: Self { Self[.inMemory("sharedCount"), default: 0] }
}

/// A key of a user's that wraps an in-memory key and forwards its identity.
private struct ForwardingKey: SharedKey {
  let base: InMemoryKey<Int>

  var id: InMemoryKeyID { base.id }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription
  {
    base.subscribe(context: context, subscriber: subscriber)
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}

@Suite struct InMemoryKeyTests {
  @Test func sharedByKey() {
    @Shared(.inMemory("count")) var first = 0
    @Shared(.inMemory("count")) var second = 0
    $first.withLock { $0 += 1 }
    #expect(second == 1)
  }

  @Test func outlivesEveryShared() {
    do {
      @Shared(.inMemory("name")) var name = "Blob"
      $name.withLock { $0 = "Blob Jr." }
    }
    @Shared(.inMemory("name")) var name = "Blob"
    #expect(name == "Blob Jr.")
  }

  @Test func firstDefaultOutlivesItsHolders() async throws {
    do {
      @Shared(.inMemory("launches")) var launches = 1
      #expect(launches == 1)
    }
    @Shared(.inMemory("launches")) var launches = 2
    #expect(launches == 1)
    let required = try await SharedReader<Int>(require: .inMemory("launches"))
    #expect(required.wrappedValue == 1)
  }

  @Test func requireFindsTheFirstDefaultAfterEveryHolderIsGone() async throws {
    do {
      @Shared(.inMemory("theme")) var theme = "dark"
    }
    let required = try await Shared<String>(require: .inMemory("theme"))
    #expect(required.wrappedValue == "dark")
  }

  @Test func writesAfterAnExplicitSaveOutliveTheirHolders() async throws {
    do {
      @Shared(.inMemory("count")) var count = 0
      try await $count.save()
      $count.withLock { $0 = 5 }
    }
    @Shared(.inMemory("count")) var count = 1
    #expect(count == 5)
  }

  @Test func optionalValueStartsFromItsDefault() {
    @Shared(.inMemory("nickname")) var nickname: String? = "Blob"
    #expect(nickname == "Blob")
    $nickname.withLock { $0 = nil }
    @Shared(.inMemory("nickname")) var again: String? = "Blob"
    #expect(again == nil)
  }

  @Test func isolatedPerTest() {
    @Shared(.inMemory("isolated")) var value = 0
    #expect(value == 0)
    $value.withLock { $0 += 1 }
  }

  @Test func isolatedPerTestToo() {
    @Shared(.inMemory("isolated")) var value = 0
    #expect(value == 0)
    $value.withLock { $0 += 1 }
  }

  @Test func storesAreIndependent() {
    let other = InMemoryStorage()
    @Shared(.inMemory("count")) var count = 0
    withDependencies {
      $0.defaultInMemoryStorage = other
    } operation: {
      @Shared(.inMemory("count")) var otherCount = 10
      $otherCount.withLock { $0 += 1 }
    }
    #expect(count == 0)
    #expect(other != InMemoryStorage())
  }

  /// A value is never loading, nor in error: the store is read in place, as a load would.
  @Test func startsLoadedAndWithoutErrors() async throws {
    do {
      @Shared(.inMemory("count")) var count = 1
      $count.withLock { $0 = 2 }
      #expect(!$count.isLoading && $count.loadError == nil && $count.saveError == nil)
    }
    @Shared(.inMemory("count")) var count = 0
    #expect(count == 2)
    #expect(!$count.isLoading && $count.loadError == nil && $count.saveError == nil)
    try await $count.load()
    #expect(count == 2 && !$count.isLoading && $count.loadError == nil)
  }

  @Test func aKeyWithADefaultSharesTheValueOfPlainUsesOfItsName() {
    @Shared(.inMemory("sharedCount")) var plain = 0
    @Shared(.sharedCount) var typed
    $plain.withLock { $0 = 5 }
    #expect(typed == 5)
    $typed.withLock { $0 = 7 }
    #expect(plain == 7)
    @Shared(.inMemory("sharedCount")) var later = 0
    #expect(later == 7)
  }

  @Test func aPlainUseSharesTheValueOfAKeyWithADefaultCreatedFirst() {
    @Shared(.sharedCount) var typed
    @Shared(.inMemory("sharedCount")) var plain = 0
    $typed.withLock { $0 = 7 }
    #expect(plain == 7)
    $plain.withLock { $0 = 8 }
    #expect(typed == 8)
  }

  @Test func aKeyForwardingTheIdentitySharesTheValue() {
    @Shared(ForwardingKey(base: .inMemory("forwarded"))) var wrapped = 0
    @Shared(.inMemory("forwarded")) var plain = 0
    $wrapped.withLock { $0 = 3 }
    #expect(plain == 3)
    $plain.withLock { $0 = 4 }
    #expect(wrapped == 4)
  }

  @Test func differentTypesOnOneKeyAreReportedOnceWithBothPlaces() {
    @Shared(.inMemory("mixed")) var number = 1
    let reports = Locked(0)
    withKnownIssue {
      for _ in 1...3 {
        @Shared(.inMemory("mixed")) var text = "one"
        #expect(text == "one")
      }
    } matching: { issue in
      reports.withLock { $0 += 1 }
      let description = issue.description
      return description.contains(#".inMemory("mixed")"#)
        && description.contains("'Int' at SharingPersistenceTests/InMemoryKeyTests.swift:")
        && description.contains("'String' at SharingPersistenceTests/InMemoryKeyTests.swift:")
    }
    #expect(reports.withLock { $0 } == 1)
    #expect(number == 1)
  }

  @Test func aNewKeyCreatedOnManyThreadsAtOnceHasOneValue() async {
    for round in 0..<200 {
      let name = "race-\(round)"
      let created = await withTaskGroup(of: Shared<Int>.self) { group in
        for index in 0..<8 {
          group.addTask { Shared(wrappedValue: index, .inMemory(name)) }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      created[0].withLock { $0 = -1 }
      #expect(created.allSatisfy { $0.wrappedValue == -1 }, "round \(round)")
    }
  }

  @Test func smallWriteDoesNotCopyTheValue() {
    @Shared(.inMemory("numbers")) var numbers = Array(0..<1_000)
    #expect(numbers.count == 1_000)
    $numbers.withLock { $0.reserveCapacity(2_000) }
    let before = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
    $numbers.withLock { $0.append(1_000) }
    let after = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
    #expect(before == after)
  }

  @Test func smallDerivedWriteDoesNotCopyTheValue() {
    struct Inventory: Sendable {
      var name = "store"
      var items = Array(0..<1_000)
    }
    @Shared(.inMemory("inventory")) var inventory = Inventory()
    let items = $inventory.items
    #expect(items.wrappedValue.count == 1_000)
    items.withLock { $0.reserveCapacity(2_000) }
    let before = items.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
    items.withLock { $0.append(1_000) }
    let after = items.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
    #expect(before == after)
  }

  @Test func description() {
    @Shared(.inMemory("count")) var count = 0
    #expect($count.description == #"Shared<Int>(.inMemory("count"))"#)
  }
}
