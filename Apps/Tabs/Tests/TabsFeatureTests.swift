import SharingCore
import SharingTesting
import TabsKit
import Testing

/// The shared state case study, tested exhaustively with a ``FeatureTester``: the stats live
/// in a reference shared by both tabs, yet every change to them is asserted as a value.
@Suite struct TabsFeatureTests {
  let tester = FeatureTester(initialState: TabsFeature(stats: Shared(value: Stats()))) {
    $0.send($1)
  }

  @Test func selectingATabCountsUpDescribedIncrementally() {
    tester.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.$stats.withLock { $0.increment() }
    }
    tester.send(.selectTab(.counter)) {
      $0.currentTab = .counter
      $0.$stats.withLock { $0.increment() }
    }
    #expect(tester.state.profile.stats == Stats(count: 2, maxCount: 2, numberOfCounts: 2))
  }

  @Test func selectingATabCountsUpDescribedAbsolutely() {
    tester.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.$stats.withLock { $0 = Stats(count: 1, maxCount: 1, minCount: 0, numberOfCounts: 1) }
    }
    tester.send(.selectTab(.counter)) {
      $0.currentTab = .counter
      $0.$stats.withLock { $0 = Stats(count: 2, maxCount: 2, minCount: 0, numberOfCounts: 2) }
    }
  }

  @Test func countingAndResettingChangeOnlyTheSharedStats() {
    tester.send(.counter(.incrementButtonTapped)) {
      $0.$stats.withLock { $0.increment() }
    }
    tester.send(.counter(.decrementButtonTapped)) {
      $0.$stats.withLock { $0.decrement() }
    }
    tester.send(.counter(.decrementButtonTapped)) {
      $0.$stats.withLock { $0 = Stats(count: -1, maxCount: 1, minCount: -1, numberOfCounts: 3) }
    }
    tester.send(.profile(.resetStatsButtonTapped)) {
      $0.$stats.withLock { $0 = Stats() }
    }
  }

  @Test func sharedStatsCanBeAssertedThroughEitherTabsCopy() {
    tester.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    tester.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.profile.$stats.withLock { $0.increment() }
    }
  }

  @Test func primeAlertIsAssertedWithoutTouchingTheSharedStats() {
    tester.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = "👎 The number 0 is not prime :("
    }
    tester.send(.counter(.alertDismissed)) {
      $0.counter.alert = nil
    }
    for _ in 1...3 {
      tester.send(.counter(.incrementButtonTapped)) {
        $0.$stats.withLock { $0.increment() }
      }
    }
    tester.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = "👍 The number 3 is prime!"
    }
  }

  @Test func describingOneIncrementTwiceFailsWithADiffOfTheStats() {
    withKnownIssue {
      tester.send(.selectTab(.profile)) {
        $0.currentTab = .profile
        $0.$stats.withLock { $0.increment() }
        $0.$stats.withLock { $0.increment() }
      }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        A state change does not match expectation: …

            TabsFeature(
              currentTab: .profile,
              counter: CounterTab(
                alert: nil,
                _stats: #1 Stats(
          −       count: 2,
          +       count: 1,
          −       maxCount: 2,
          +       maxCount: 1,
                  minCount: 0,
          −       numberOfCounts: 2
          +       numberOfCounts: 1
                )
              ),
              profile: ProfileTab(…),
              _stats: #1 Stats(↩︎)
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func leavingOutTheSharedChangeFails() {
    withKnownIssue {
      tester.send(.selectTab(.profile)) {
        $0.currentTab = .profile
      }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation: …")
        && issue.description.contains("−       count: 0,\n  +       count: 1,")
    }
    withKnownIssue {
      tester.send(.counter(.incrementButtonTapped))
    } matching: { issue in
      issue.description.contains("State was not expected to change, but a change occurred: …")
    }
  }
}
