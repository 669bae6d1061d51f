import Sharing
import SharingTesting
import Testing

/// The shape of the shared-state case study: one shared `Stats` held in three places.
@Suite struct DiffSharedStateTests {
  @Test func changesInSharedStatsShowWhereTheReferenceIsFirstHeld() {
    let before = SharedState.State(stats: Shared(value: Stats()))
    let after = SharedState.State(
      stats: Shared(value: Stats(count: 1, maxCount: 1, minCount: 0, numberOfCounts: 1))
    )
    #expect(
      diff(before, after) == """
          SharedState.State(
            currentTab: .counter,
            counter: CounterTab.State(
              alert: nil,
              _stats: #1 Stats(
        -       count: 0,
        +       count: 1,
        -       maxCount: 0,
        +       maxCount: 1,
                minCount: 0,
        -       numberOfCounts: 0
        +       numberOfCounts: 1
              )
            ),
            profile: ProfileTab.State(…),
            _stats: #1 Stats(↩︎)
          )
        """
    )
  }

  @Test func unchangedSharedStatsAreCollapsed() {
    let stats = Shared(value: Stats())
    let before = SharedState.State(stats: stats)
    var after = before
    after.counter.alert = "👎 The number 0 is not prime :("
    #expect(
      diff(before, after) == """
          SharedState.State(
            currentTab: .counter,
            counter: CounterTab.State(
        -     alert: nil,
        +     alert: "👎 The number 0 is not prime :(",
              _stats: #1 Stats(…)
            ),
            profile: ProfileTab.State(…),
            _stats: #1 Stats(↩︎)
          )
        """
    )
  }
}

// MARK: - Fixtures

private struct Stats: Equatable {
  var count = 0
  var maxCount = 0
  var minCount = 0
  var numberOfCounts = 0
}

private enum Tab {
  case counter
  case profile
}

private enum CounterTab {
  struct State {
    var alert: String?
    @Shared var stats: Stats
  }
}

private enum ProfileTab {
  struct State {
    @Shared var stats: Stats
  }
}

private enum SharedState {
  struct State {
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
}
