import Sharing
import SharingTesting
import Testing

/// The shared-state case study: a counter tab and a profile tab that hold the same `Stats`,
/// tested exhaustively although `Stats` lives in a reference.
@Suite struct FeatureTesterTests {
  private func makeTester() -> FeatureTester<TabsFeature.State, TabsFeature.Action> {
    FeatureTester(initialState: TabsFeature.State(stats: Shared(value: Stats()))) {
      TabsFeature.reduce(&$0, $1)
    }
  }

  @Test func incrementalMutationOfSharedStatePasses() {
    let tester = makeTester()
    tester.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.$stats.withLock { $0.increment() }
    }
    tester.send(.selectTab(.counter)) {
      $0.currentTab = .counter
      $0.$stats.withLock { $0.increment() }
    }
    #expect(tester.state.stats == Stats(count: 2, maxCount: 2, minCount: 0, numberOfCounts: 2))
  }

  @Test func sharedStateCanBeAssertedThroughAnyCopyOfIt() {
    let tester = makeTester()
    tester.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.counter.$stats.withLock { $0.increment() }
    }
    tester.send(.selectTab(.counter)) {
      $0.currentTab = .counter
      $0.profile.$stats.withLock { $0.increment() }
    }
  }

  @Test func absoluteMutationOfSharedStatePasses() {
    let tester = makeTester()
    tester.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.$stats.withLock { $0 = Stats(count: 1, maxCount: 1, minCount: 0, numberOfCounts: 1) }
    }
    tester.send(.selectTab(.counter)) {
      $0.currentTab = .counter
      $0.$stats.withLock { $0 = Stats(count: 2, maxCount: 2, minCount: 0, numberOfCounts: 2) }
    }
  }

  @Test func describingOneIncrementTwiceFailsWithADiff() {
    let tester = makeTester()
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

            TabsFeature.State(
              currentTab: .profile,
              counter: CounterTab.State(
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
              profile: ProfileTab.State(…),
              _stats: #1 Stats(↩︎)
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func afterAFailedStepTheNextStartsFromTheActualState() {
    let tester = makeTester()
    withKnownIssue {
      tester.send(.selectTab(.profile)) { $0.currentTab = .profile }
    }
    tester.send(.selectTab(.counter)) {
      $0.currentTab = .counter
      $0.$stats.withLock { $0 = Stats(count: 2, maxCount: 2, minCount: 0, numberOfCounts: 2) }
    }
  }

  @Test func unassertedSharedChangeFailsEverywhereTheStateHoldsIt() {
    let tester = makeTester()
    withKnownIssue {
      tester.send(.counter(.incrementButtonTapped))
    } matching: { issue in
      issue.description.hasSuffix(
        """
        State was not expected to change, but a change occurred: …

            TabsFeature.State(
              currentTab: .counter,
              counter: CounterTab.State(
                alert: nil,
                _stats: #1 Stats(
          −       count: 0,
          +       count: 1,
          −       maxCount: 0,
          +       maxCount: 1,
                  minCount: 0,
          −       numberOfCounts: 0
          +       numberOfCounts: 1
                )
              ),
              profile: ProfileTab.State(…),
              _stats: #1 Stats(↩︎)
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func closureChangingOnlySharedStateIsNotReportedAsNoChange() {
    let tester = makeTester()
    tester.send(.counter(.incrementButtonTapped)) {
      $0.$stats.withLock { $0.increment() }
    }
    tester.send(.counter(.decrementButtonTapped)) {
      $0.$stats.withLock { $0.decrement() }
    }
    tester.send(.profile(.resetStatsButtonTapped)) {
      $0.$stats.withLock { $0.reset() }
    }
  }

  @Test func actionChangingNoSharedStateNeedsNoSharedAssertion() {
    let tester = makeTester()
    tester.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = "👎 The number 0 is not prime :("
    }
  }

  @Test func noOpMutationOfUnchangedSharedStateIsAccepted() {
    let tester = makeTester()
    tester.send(.counter(.isPrimeButtonTapped)) {
      $0.$stats.withLock { $0.reset() }
      $0.counter.alert = "👎 The number 0 is not prime :("
    }
  }

  @Test func unassertedChangeOfPlainStateFailsWithADiff() {
    let tester = makeTester()
    withKnownIssue {
      tester.send(.counter(.isPrimeButtonTapped))
    } matching: { issue in
      issue.description.hasSuffix(
        """
        State was not expected to change, but a change occurred: …

            TabsFeature.State(
              currentTab: .counter,
              counter: CounterTab.State(
          −     alert: nil,
          +     alert: "👎 The number 0 is not prime :(",
                _stats: #1 Stats(…)
              ),
              profile: ProfileTab.State(…),
              _stats: #1 Stats(↩︎)
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func closureThatChangesNothingReportsNoChange() {
    let tester = makeTester()
    tester.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = "👎 The number 0 is not prime :("
    }
    withKnownIssue {
      tester.send(.counter(.isPrimeButtonTapped)) {
        $0.counter.alert = "👎 The number 0 is not prime :("
      }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state \
        is expected, omit the trailing closure.
        """
      )
    }
  }

  @Test func expectedSharedChangeThatDidNotHappenFails() {
    let tester = makeTester()
    withKnownIssue {
      tester.send(.counter(.isPrimeButtonTapped)) {
        $0.counter.alert = "👎 The number 0 is not prime :("
        $0.$stats.withLock { $0.increment() }
      }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation: …")
        && issue.description.contains("−       count: 1,\n  +       count: 0,")
    }
  }

  @Test func issuesPointAtTheSendCall() {
    let tester = makeTester()
    let line = #line + 2
    withKnownIssue {
      tester.send(.counter(.incrementButtonTapped))
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
    }
  }

  @Test func errorsThrownByTheTrailingClosureAreReported() {
    let tester = makeTester()
    withKnownIssue {
      tester.send(.selectTab(.profile)) { _ in throw Failure() }
    } matching: { issue in
      issue.description.contains("Caught error: ") && issue.description.hasSuffix("Failure()")
    }
    #expect(tester.state.currentTab == .profile)
  }
}

// MARK: - Fixtures

private struct Failure: Error {}

private struct Stats: Equatable, Sendable {
  var count = 0
  var maxCount = 0
  var minCount = 0
  var numberOfCounts = 0

  mutating func increment() {
    count += 1
    numberOfCounts += 1
    maxCount = max(maxCount, count)
  }

  mutating func decrement() {
    count -= 1
    numberOfCounts += 1
    minCount = min(minCount, count)
  }

  mutating func reset() {
    self = Stats()
  }
}

private enum CounterTab {
  struct State: Equatable {
    var alert: String?
    @Shared var stats: Stats
  }

  enum Action {
    case decrementButtonTapped
    case incrementButtonTapped
    case isPrimeButtonTapped
  }

  static func reduce(_ state: inout State, _ action: Action) {
    switch action {
    case .decrementButtonTapped:
      state.$stats.withLock { $0.decrement() }
    case .incrementButtonTapped:
      state.$stats.withLock { $0.increment() }
    case .isPrimeButtonTapped:
      let count = state.stats.count
      state.alert =
        isPrime(count)
        ? "👍 The number \(count) is prime!"
        : "👎 The number \(count) is not prime :("
    }
  }

  private static func isPrime(_ number: Int) -> Bool {
    guard number > 1 else { return false }
    return (2..<number).allSatisfy { number % $0 != 0 }
  }
}

private enum ProfileTab {
  struct State: Equatable {
    @Shared var stats: Stats
  }

  enum Action {
    case resetStatsButtonTapped
  }

  static func reduce(_ state: inout State, _ action: Action) {
    switch action {
    case .resetStatsButtonTapped:
      state.$stats.withLock { $0.reset() }
    }
  }
}

private enum TabsFeature {
  enum Tab {
    case counter
    case profile
  }

  struct State: Equatable {
    var currentTab = Tab.counter
    var counter: CounterTab.State
    var profile: ProfileTab.State
    @Shared var stats: Stats

    init(stats: Shared<Stats>) {
      self.counter = CounterTab.State(stats: stats)
      self.profile = ProfileTab.State(stats: stats)
      self._stats = stats
    }
  }

  enum Action {
    case counter(CounterTab.Action)
    case profile(ProfileTab.Action)
    case selectTab(Tab)
  }

  static func reduce(_ state: inout State, _ action: Action) {
    switch action {
    case .counter(let action):
      CounterTab.reduce(&state.counter, action)
    case .profile(let action):
      ProfileTab.reduce(&state.profile, action)
    case .selectTab(let tab):
      state.currentTab = tab
      state.$stats.withLock { $0.increment() }
    }
  }
}
