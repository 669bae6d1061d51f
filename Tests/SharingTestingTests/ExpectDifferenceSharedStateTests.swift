import Sharing
import SharingTesting
import Testing

/// `expectDifference` on values that hold `@Shared` state.
@Suite struct ExpectDifferenceSharedStateTests {
  @Test func incrementalChangeOfSharedStatePasses() {
    let model = Model(tally: Shared(value: Tally()))
    expectDifference(model) {
      model.$tally.withLock { $0.increment() }
    } changes: {
      $0.$tally.withLock { $0.increment() }
    }
  }

  @Test func absoluteChangeOfSharedStatePasses() {
    let model = Model(tally: Shared(value: Tally()))
    expectDifference(model) {
      model.$tally.withLock { $0.increment() }
    } changes: {
      $0.$tally.withLock { $0 = Tally(count: 1, total: 1) }
    }
  }

  @Test func undescribedChangeOfSharedStateReportsADiff() {
    let model = Model(tally: Shared(value: Tally()))
    withKnownIssue {
      expectDifference(model) {
        model.$tally.withLock { $0.increment() }
      } changes: { _ in
      }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        Difference: …

            Model(
              _tally: #1 Tally(
          −     count: 0,
          +     count: 1,
          −     total: 0
          +     total: 1
              )
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func changeDescribedTwiceReportsADiff() {
    let model = Model(tally: Shared(value: Tally()))
    withKnownIssue {
      expectDifference(model) {
        model.$tally.withLock { $0.increment() }
      } changes: {
        $0.$tally.withLock { $0.increment() }
        $0.$tally.withLock { $0.increment() }
      }
    } matching: { issue in
      issue.description.contains("−     count: 2,\n  +     count: 1,")
    }
  }

  @Test func asyncOperationOnSharedStateIsComparedWithItsSnapshot() async {
    let model = Model(tally: Shared(value: Tally()))
    await expectDifference(model) {
      await Task { model.$tally.withLock { $0.increment() } }.value
    } changes: {
      $0.$tally.withLock { $0.increment() }
    }
  }

  @Test func sharedValueItselfCanBeTheExpression() {
    let count = Shared(value: 0)
    expectDifference(count) {
      count.withLock { $0 += 1 }
    } changes: {
      $0.withLock { $0 += 1 }
    }
  }
}

// MARK: - Fixtures

private struct Tally: Equatable, Sendable {
  var count = 0
  var total = 0

  mutating func increment() {
    count += 1
    total += 1
  }
}

private struct Model: Equatable, Sendable {
  @Shared var tally: Tally
}
