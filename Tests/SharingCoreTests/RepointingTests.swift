import SharingCore
import TestSupport
import Testing

@Suite struct RepointingTests {
  @Test func assigningTheProjectedValueRepointsTheValueAndItsCopies() {
    @Shared(value: 1) var count
    let copy = $count
    $count = Shared(value: 2)
    #expect(count == 2)
    #expect(copy.wrappedValue == 2)
  }

  @Test func valuesDerivedEarlierKeepReadingTheOldReference() {
    @Shared(value: Stats(count: 1)) var stats
    let count = $stats.count
    let computed = $stats.read { $0.count }
    let reader = SharedReader($stats)
    $stats = Shared(value: Stats(count: 2))
    #expect(stats.count == 2)
    #expect(count.wrappedValue == 1)
    #expect(computed.wrappedValue == 1)
    #expect(reader.wrappedValue.count == 1)
    count.withLock { $0 = 5 }
    #expect(stats.count == 2)
    #expect(computed.wrappedValue == 5)
    #expect(reader.wrappedValue.count == 5)
  }

  @Test func valuesDerivedFromAKeyedValueKeepItsReferenceAfterAnAssignment() {
    let store = TestStore<Stats>()
    @Shared(.test("stats", store: store)) var stats = Stats()
    let count = $stats.count
    let reader = SharedReader($stats)
    $stats = Shared(value: Stats(count: 9))
    count.withLock { $0 = 3 }
    #expect(stats.count == 9)
    #expect(reader.wrappedValue.count == 3)
    #expect(store.value?.count == 3)
  }

  @Test func repointingAReaderLeavesTheValueItWasMadeFrom() {
    @Shared(value: 1) var count
    let reader = SharedReader($count)
    reader.projectedValue = SharedReader(value: 7)
    #expect(reader.wrappedValue == 7)
    #expect(count == 1)
  }

  @Test func valuesFollowTheValueToTheKeyItMovesTo() async throws {
    try await withWatchdog(seconds: 30) {
      let first = TestStore(1)
      let second = TestStore(2)
      @Shared(.test("a", store: first)) var a = 0
      var values = $a.values.makeAsyncIterator()
      #expect(await values.next() == 1)
      try await $a.load(.test("b", store: second))
      second.externalChange(3)
      var seen: [Int] = []
      while let value = await values.next() {
        seen.append(value)
        if value == 3 { break }
      }
      #expect(seen.last == 3)
      #expect(seen.contains(2))
    }
  }
}
