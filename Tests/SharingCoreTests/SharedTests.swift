import SharingCore
import Testing

@Suite struct SharedTests {
  @Test func valueInitializerHoldsTheValue() {
    let count = Shared(value: 42)
    #expect(count.wrappedValue == 42)
  }

  @Test func withLockMutatesAndReturnsTheBodysResult() {
    let count = Shared(value: 1)
    let doubled = count.withLock { value -> Int in
      value += 1
      return value * 2
    }
    #expect(doubled == 4)
    #expect(count.wrappedValue == 2)
  }

  @Test func withLockRethrowsWithoutLosingEarlierMutations() {
    struct Failure: Error {}
    let count = Shared(value: 0)
    #expect(throws: Failure.self) {
      try count.withLock { value in
        value = 5
        throw Failure()
      }
    }
    #expect(count.wrappedValue == 5)
  }

  @Test func copiesShareOneValue() {
    let original = Shared(value: [1, 2])
    let copy = original
    copy.withLock { $0.append(3) }
    #expect(original.wrappedValue == [1, 2, 3])
  }

  @Test func propertyWrapperExposesTheSharedValueAsProjection() {
    struct Feature {
      @Shared var count: Int
    }
    let feature = Feature(count: Shared(value: 1))
    feature.$count.withLock { $0 += 1 }
    #expect(feature.count == 2)
    let other = Feature(count: feature.$count)
    other.$count.withLock { $0 += 1 }
    #expect(feature.count == 3)
  }

  @Test func projectedValueInitializerSharesTheReference() {
    let count = Shared(value: 0)
    let same = Shared(projectedValue: count)
    same.withLock { $0 = 9 }
    #expect(count.wrappedValue == 9)
  }

  @Test func assigningTheProjectionRedirectsEveryCopy() {
    let first = Shared(value: 1)
    let copy = first
    let other = Shared(value: 100)
    first.projectedValue = other
    #expect(copy.wrappedValue == 100)
    copy.withLock { $0 += 1 }
    #expect(other.wrappedValue == 101)
  }

  @available(*, deprecated, message: "Exercises the deprecated setter.")
  @Test func deprecatedAssignmentStillWrites() {
    let count = Shared(value: 0)
    count.wrappedValue = 7
    #expect(count.wrappedValue == 7)
  }

  @Test func readingInsideWithLockSeesTheValueBeingMutated() {
    let todos = Shared(value: [Todo(id: 0, title: "a")])
    todos.withLock { $0.append(Todo(id: todos.wrappedValue.count, title: "b")) }
    #expect(todos.wrappedValue.map(\.id) == [0, 1])
  }

  @Test func nestedWithLockOnTheSameValueIsReportedAndItsChangeDiscarded() {
    let count = Shared(value: 0)
    withKnownIssue {
      count.withLock { value in
        value += 1
        count.withLock { $0 += 10 }
        value += 100
      }
    } matching: { issue in
      issue.description.contains("from inside its own 'withLock'")
    }
    #expect(count.wrappedValue == 101)
  }

  @Test func nestedWithLockThroughADerivedValueIsReported() {
    let stats = Shared(value: Stats())
    withKnownIssue {
      stats.withLock { _ in stats.count.withLock { $0 = 5 } }
    } matching: { issue in
      issue.description.contains("from inside its own 'withLock'")
    }
    #expect(stats.wrappedValue.count == 0)
  }

  @Test func nonPersistedValueHasNoLoadingState() async throws {
    let count = Shared(value: 0)
    #expect(!count.isLoading)
    #expect(count.loadError == nil)
    #expect(count.saveError == nil)
    try await count.load()
    try await count.save()
    #expect(count.wrappedValue == 0)
  }
}
