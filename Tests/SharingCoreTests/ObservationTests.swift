import Observation
import SharingCore
import SharingDependencies
import TestSupport
import Testing

/// Counts `withObservationTracking` change notifications.
private final class ChangeCounter: Sendable {
  private let count = Locked(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }

  /// Tracks `read` once; the next change increments the counter.
  func track(_ read: () -> Void) {
    withObservationTracking(read) { self.increment() }
  }
}

@Suite struct ObservationTests {
  @Test func directWriteNotifiesATrackedRead() {
    let count = Shared(value: 0)
    let changes = ChangeCounter()
    changes.track { _ = count.wrappedValue }
    count.withLock { $0 += 1 }
    #expect(changes.value == 1)
  }

  @Test func writeThroughADerivedValueNotifiesTheParentsObservers() {
    let stats = Shared(value: Stats())
    let changes = ChangeCounter()
    changes.track { _ = stats.wrappedValue }
    stats.count.withLock { $0 = 1 }
    #expect(changes.value == 1)
  }

  @Test func writeToTheParentNotifiesADerivedRead() {
    let stats = Shared(value: Stats())
    let count = stats.count
    let changes = ChangeCounter()
    changes.track { _ = count.wrappedValue }
    stats.withLock { $0.increment() }
    #expect(changes.value == 1)
  }

  @Test func externalChangeNotifies() {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    let changes = ChangeCounter()
    changes.track { _ = count.wrappedValue }
    store.externalChange(5)
    #expect(changes.value == 1)
  }

  @Test func loadingStateChangesNotify() {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    let changes = ChangeCounter()
    changes.track { _ = count.isLoading }
    store.externalLoading(true)
    #expect(changes.value == 1)
    changes.track { _ = count.loadError }
    store.externalError(StoreError(message: "x"))
    #expect(changes.value == 2)
  }

  @Test func failedSaveNotifiesSaveErrorObservers() {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    let changes = ChangeCounter()
    changes.track { _ = count.saveError }
    store.setSaveError(StoreError(message: "disk full"))
    count.withLock { $0 += 1 }
    #expect(changes.value == 1)
    #expect((count.saveError as? StoreError)?.message == "disk full")
  }

  @Test func untrackedValuesDoNotNotify() {
    let first = Shared(value: 0)
    let second = Shared(value: 0)
    let changes = ChangeCounter()
    changes.track { _ = first.wrappedValue }
    second.withLock { $0 += 1 }
    #expect(changes.value == 0)
  }

  @Test func writeFromABackgroundThreadNotifies() async {
    let count = Shared(value: 0)
    let changes = ChangeCounter()
    changes.track { _ = count.wrappedValue }
    await Task.detached { count.withLock { $0 += 1 } }.value
    #expect(changes.value == 1)
  }

  @Test func observationsSequenceSeesChangesOffTheMainActor() async throws {
    let count = Shared(value: 0)
    try await withWatchdog {
      await Task.detached {
        let observed = Observations { count.wrappedValue }
        var iterator = observed.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        count.withLock { $0 = 1 }
        #expect(await iterator.next() == 1)
      }.value
    }
  }

  @Test func valuesStartWithTheCurrentValueThenEachChange() async throws {
    let count = Shared(value: 10)
    try await withWatchdog {
      var iterator = count.values.makeAsyncIterator()
      #expect(await iterator.next() == 10)
      count.withLock { $0 = 11 }
      count.withLock { $0 = 12 }
      #expect(await iterator.next() == 11)
      #expect(await iterator.next() == 12)
    }
  }

  @Test func derivedValuesSequenceProjectsChanges() async throws {
    let stats = Shared(value: Stats())
    try await withWatchdog {
      var iterator = SharedReader(stats).count.values.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      stats.withLock { $0.increment() }
      #expect(await iterator.next() == 1)
    }
  }

  @Test func valuesSequenceEndsWhenItsTaskIsCancelled() async throws {
    let count = Shared(value: 0)
    try await withWatchdog {
      let consumer = Task {
        var seen = 0
        for await _ in count.values { seen += 1 }
        return seen
      }
      await Task.yield()
      consumer.cancel()
      #expect(await consumer.value >= 0)
    }
  }
}

@Suite struct RedirectionObservationTests {
  @Test func switchingKeysNotifiesATrackedRead() async throws {
    let first = TestStore(1)
    let second = TestStore(2)
    let value = Shared(wrappedValue: 0, .test("first", store: first))
    let changes = ChangeCounter()
    changes.track { _ = value.wrappedValue }
    try await value.load(.test("second", store: second))
    #expect(value.wrappedValue == 2)
    #expect(changes.value == 1)
  }

  @Test func assigningTheProjectionNotifiesATrackedRead() {
    let value = Shared(value: 1)
    let changes = ChangeCounter()
    changes.track { _ = value.wrappedValue }
    value.projectedValue = Shared(value: 50)
    #expect(changes.value == 1)
  }
}
