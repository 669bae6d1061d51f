import Sharing
import SharingTesting
import Testing

@Suite struct FeatureTesterAsyncTests {
  @Test func asyncReducerIsAwaitedAndAsserted() async {
    let tester = FeatureTester(initialState: Downloads(progress: Shared(value: 0))) {
      await $0.reduce($1)
    }
    await tester.send(.start) {
      $0.isRunning = true
      $0.$progress.withLock { $0 = 100 }
    }
    await tester.send(.start)
    #expect(tester.state.progress == 100)
  }

  @Test func unassertedChangeOfAnAsyncReducerIsReported() async {
    let tester = FeatureTester(initialState: Downloads(progress: Shared(value: 0))) {
      await $0.reduce($1)
    }
    await withKnownIssue {
      await tester.send(.start) { $0.isRunning = true }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        A state change does not match expectation: …

            Downloads(
              isRunning: true,
          −   _progress: #1 0
          +   _progress: #1 100
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func syncReducerCanBeAwaitedInAnAsyncTest() async {
    let tester = FeatureTester(initialState: 0) { (state: inout Int, delta: Int) in
      state += delta
    }
    await tester.send(2) { $0 = 2 }
  }

  @MainActor
  @Test func mainActorFeatureRunsOnTheMainActor() async {
    let tester = FeatureTester(initialState: 0) { (state: inout Int, delta: Int) async in
      MainActor.assertIsolated()
      state += delta
    }
    await tester.send(1) { $0 = 1 }
  }

  @Test func sendingSynchronouslyToAnAsyncReducerIsReported() {
    let tester = FeatureTester(initialState: 0) { (state: inout Int, delta: Int) async in
      state += delta
    }
    withKnownIssue {
      tester.send(1)
    } matching: { issue in
      issue.description.contains(
        "This feature's reducer is asynchronous, so 'send' must be awaited"
      )
    }
    #expect(tester.state == 0)
  }
}

// MARK: - Fixtures

private struct Downloads: Equatable {
  var isRunning = false
  @Shared var progress: Int

  enum Action {
    case start
  }

  mutating func reduce(_ action: Action) async {
    switch action {
    case .start:
      isRunning = true
      let progress = $progress
      await Task { progress.withLock { $0 = 100 } }.value
    }
  }
}
