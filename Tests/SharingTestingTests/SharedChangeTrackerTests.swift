import Sharing
import SharingDependencies
import SharingTesting
import Testing

@Suite struct SharedChangeTrackerTests {
  @Test func unassertedChangeIsReportedWithADiff() {
    let settings = Shared(value: Settings())
    let tracker = SharedChangeTracker()
    tracker.track { settings.withLock { $0.launchCount += 1 } }
    withKnownIssue {
      tracker.assert {}
    } matching: { issue in
      issue.description.hasSuffix(
        """
        Shared<Settings> was not expected to change, but a change occurred: …

            Settings(
          −   launchCount: 0,
          +   launchCount: 1,
              isHapticsEnabled: true
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func incrementallyAssertedChangePasses() {
    let settings = Shared(value: Settings())
    let tracker = SharedChangeTracker()
    tracker.track { settings.withLock { $0.launchCount += 1 } }
    #expect(tracker.hasChanges)
    tracker.assert {
      #expect(settings.launchCount.wrappedValue == 0)
      settings.withLock { $0.launchCount += 1 }
    }
    #expect(!tracker.hasChanges)
  }

  @Test func absolutelyAssertedChangePasses() {
    let settings = Shared(value: Settings())
    let tracker = SharedChangeTracker()
    tracker.track { settings.withLock { $0.isHapticsEnabled.toggle() } }
    tracker.assert {
      settings.withLock { $0 = Settings(launchCount: 0, isHapticsEnabled: false) }
    }
  }

  @Test func wronglyAssertedChangeIsReportedWithADiff() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    withKnownIssue {
      tracker.assert { count.withLock { $0 += 2 } }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        A change to Shared<Int> does not match expectation: …

          − 2
          + 1

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func assertedChangeThatDidNotHappenIsReported() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track {}
    withKnownIssue {
      tracker.assert { count.withLock { $0 += 1 } }
    } matching: { issue in
      issue.description.contains("A change to Shared<Int> does not match expectation: …")
    }
    #expect(count.wrappedValue == 0)
  }

  @Test func noChangesReportNothing() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { _ = count.wrappedValue }
    #expect(!tracker.hasChanges)
    tracker.assert {}
  }

  @Test func everyUnassertedValueIsReported() {
    let count = Shared(value: 0)
    let name = Shared(value: "Blob")
    let tracker = SharedChangeTracker()
    tracker.track {
      count.withLock { $0 += 1 }
      name.withLock { $0 += " Jr." }
    }
    let reported = Locked<[String]>([])
    withKnownIssue {
      tracker.assert {}
    } matching: { issue in
      reported.withLock { $0.append(issue.description) }
      return true
    }
    let messages = reported.withLock { $0 }
    #expect(messages.count == 2)
    #expect(messages.first?.contains("Shared<Int> was not expected to change") == true)
    #expect(messages.last?.contains("Shared<String> was not expected to change") == true)
  }

  @Test func assertionForgetsSnapshotsEvenWhenItFails() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    withKnownIssue { tracker.assert {} }
    #expect(!tracker.hasChanges)
    tracker.assert {}
  }

  @Test func resetAcceptsChanges() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    tracker.reset()
    tracker.assert {}
  }

  @Test func changesInAsyncOperationsAndTheirChildTasksAreTracked() async {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    await tracker.track {
      await Task { count.withLock { $0 += 1 } }.value
      async let increment: Void = count.withLock { $0 += 1 }
      await increment
    }
    tracker.assert { count.withLock { $0 += 2 } }
  }

  @Test func derivedSharedValuesAreAssertedThroughTheirRoot() {
    let settings = Shared(value: Settings())
    let launchCount = settings.launchCount
    let tracker = SharedChangeTracker()
    tracker.track { launchCount.withLock { $0 += 1 } }
    tracker.assert { settings.withLock { $0.launchCount = 1 } }
  }

  @Test func issueIsReportedAtTheAssertion() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    let line = #line + 2
    withKnownIssue {
      tracker.assert {}
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
    }
  }

  @Test func unassertedChangesAreReportedWhenTheTrackerGoesAway() {
    let count = Shared(value: 0)
    withKnownIssue {
      do {
        let tracker = SharedChangeTracker()
        tracker.track { count.withLock { $0 += 1 } }
      }
    } matching: { issue in
      issue.description.hasSuffix(
        "Tracked unasserted changes to 'Shared<Int>(value: 1)': 0 → 1"
      )
    }
  }

  @Test func unassertedChangesThroughAnUnwrappedValueAreReportedOnTheOptional() throws {
    let optional = Shared<Int?>(value: 1)
    let unwrapped = try #require(Shared(optional))
    withKnownIssue {
      do {
        let tracker = SharedChangeTracker()
        tracker.track { unwrapped.withLock { $0 += 1 } }
      }
    } matching: { issue in
      issue.description.hasSuffix(
        "Tracked unasserted changes to 'Shared<Int?>(value: Optional(2))': Optional(1) → Optional(2)"
      )
    }
  }

  @Test func unassertedChangesToAPersistedValueNameItsKey() {
    let name = Shared(wrappedValue: "Blob", .inMemory("name"))
    withKnownIssue {
      do {
        let tracker = SharedChangeTracker()
        tracker.track { name.withLock { $0 += " Jr." } }
      }
    } matching: { issue in
      issue.description.hasSuffix(
        #"Tracked unasserted changes to 'Shared<String>(.inMemory("name"))': "Blob" → "Blob Jr.""#
      )
    }
  }

  @Test func assertedChangesAreNotReportedWhenTheTrackerGoesAway() {
    let count = Shared(value: 0)
    do {
      let tracker = SharedChangeTracker()
      tracker.track { count.withLock { $0 += 1 } }
      tracker.assert { count.withLock { $0 += 1 } }
    }
    do {
      let tracker = SharedChangeTracker()
      tracker.track { count.withLock { $0 += 1 } }
      tracker.reset()
    }
  }

  @Test func aTrackerToldNotToReportUnassertedChangesGoesAwayQuietly() {
    let count = Shared(value: 0)
    do {
      let tracker = SharedChangeTracker(reportUnassertedChanges: false)
      tracker.track { count.withLock { $0 += 1 } }
      #expect(tracker.hasChanges)
    }
    #expect(count.wrappedValue == 1)
  }

  @Test func errorThrownByTheAssertionIsRethrownWithoutReports() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    #expect(throws: Failure.self) {
      try tracker.assert { throw Failure() }
    }
    #expect(!tracker.hasChanges)
  }
}

// MARK: - Fixtures

private struct Settings: Equatable {
  var launchCount = 0
  var isHapticsEnabled = true
}

private struct Failure: Error {}
