import Testing

@testable import SharingCore

@Suite struct ChangeTrackerTests {
  @Test func firstTrackedWriteSnapshotsTheOldValue() throws {
    let stats = Shared(value: Stats())
    let tracker = ChangeTracker()
    tracker.track {
      stats.withLock { $0.increment() }
      stats.withLock { $0.increment() }
    }
    let snapshot = try #require(tracker.allSnapshots.first)
    #expect(tracker.allSnapshots.count == 1)
    #expect((snapshot.value as? Stats)?.count == 0)
    #expect((snapshot.current() as? Stats)?.count == 2)
  }

  @Test func untrackedWritesTakeNoSnapshot() {
    let stats = Shared(value: Stats())
    let tracker = ChangeTracker()
    stats.withLock { $0.increment() }
    #expect(!tracker.hasChanges)
  }

  @Test func assertionReadsAndWritesTheSnapshot() {
    let stats = Shared(value: Stats())
    let tracker = ChangeTracker()
    tracker.track { stats.withLock { $0.increment() } }
    tracker.assert {
      #expect(stats.wrappedValue.count == 0)
      stats.withLock { $0.increment() }
      #expect(stats.count.wrappedValue == 1)
    }
    #expect(stats.wrappedValue.count == 1)
  }

  @Test func assertionReadsAnUnchangedOptionalValueAsItIs() {
    let nickname = Shared<String?>(value: "Blob")
    let stats = Shared(value: Stats())
    let tracker = ChangeTracker()
    tracker.track { stats.withLock { $0.increment() } }
    tracker.assert {
      #expect(nickname.wrappedValue == "Blob")
      nickname.withLock { $0?.append(" Jr.") }
      #expect(nickname.wrappedValue == "Blob Jr.")
    }
  }

  @Test func derivedWritesAreSnapshottedAndAssertedThroughTheRoot() throws {
    let stats = Shared(value: Stats())
    let count = stats.count
    let tracker = ChangeTracker()
    tracker.track { count.withLock { $0 += 2 } }
    let snapshot = try #require(tracker.allSnapshots.first)
    #expect((snapshot.value as? Stats)?.count == 0)
    tracker.assert {
      #expect(count.wrappedValue == 0)
      count.withLock { $0 += 2 }
      #expect(count.wrappedValue == 2)
      #expect(stats.wrappedValue.count == 2)
    }
    #expect(count.wrappedValue == 2)
    #expect((tracker.allSnapshots.first?.value as? Stats)?.count == 2)
  }

  @Test func equalityInsideAnAssertionComparesExpectedSnapshotWithActualValue() {
    let stats = Shared(value: Stats())
    let tracker = ChangeTracker()
    tracker.track { stats.withLock { $0.increment() } }
    tracker.assert {
      #expect(stats != stats)
      stats.withLock { $0.increment() }
      #expect(stats == stats)
    }
  }

  @Test func changesInChildTasksAreTracked() async {
    let count = Shared(value: 0)
    let tracker = ChangeTracker()
    await tracker.track {
      await Task { count.withLock { $0 += 1 } }.value
    }
    #expect(tracker.hasChanges)
  }

  @Test func trackedWritesStillNotifyAndSave() {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    let tracker = ChangeTracker()
    tracker.track { count.withLock { $0 = 3 } }
    #expect(store.value == 3)
  }

  @Test func writesInsideAnAssertionAreNotSaved() {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    let tracker = ChangeTracker()
    tracker.assert { count.withLock { $0 = 3 } }
    #expect(store.savedValues.isEmpty)
    #expect(count.wrappedValue == 0)
  }

  @Test func resetForgetsSnapshots() {
    let count = Shared(value: 0)
    let tracker = ChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    tracker.reset()
    #expect(!tracker.hasChanges)
  }
}
