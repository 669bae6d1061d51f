import SharingTesting
import Testing

@Suite struct ExpectNoDifferenceTests {
  @Test func equalValuesPass() {
    expectNoDifference(Stats(count: 1), Stats(count: 1))
  }

  @Test func unequalValuesReportADiff() {
    withKnownIssue {
      expectNoDifference(Stats(count: 2), Stats(count: 1))
    } matching: { issue in
      issue.description.hasSuffix(
        """
        expectNoDifference failed: …

            Stats(
          −   count: 2,
          +   count: 1,
              maxCount: 0
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func messagePrecedesTheFailure() {
    withKnownIssue {
      expectNoDifference(1, 2, "Counts drifted")
    } matching: { issue in
      issue.description.contains("Counts drifted - expectNoDifference failed: …\n\n  − 1\n  + 2")
    }
  }

  @Test func issueIsReportedAtTheCallSite() {
    let line = #line + 2
    withKnownIssue {
      expectNoDifference(1, 2)
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.sourceLocation?.fileID == #fileID
    }
  }

  @Test func unequalValuesThatDumpAlikeAreExplained() {
    withKnownIssue {
      expectNoDifference(Opaque(hidden: 1), Opaque(hidden: 2))
    } matching: { issue in
      issue.description.hasSuffix(
        """
        expectNoDifference failed: Values are not equal, but no difference was detected in \
        their dumps.

          Opaque()
        """
      )
    }
  }

  @Test func thrownErrorsAreReported() throws {
    // NB: `try` inside the autoclosure makes the known-issue closure look throwing.
    try withKnownIssue {
      expectNoDifference(try failing(), 1)
    } matching: { issue in
      issue.description.contains("Caught error: ")
        && issue.description.hasSuffix("Failure()")
    }
  }
}

@Suite struct ExpectDifferenceTests {
  @Test func describedChangesPass() {
    var stats = Stats()
    expectDifference(stats) {
      stats.count += 1
    } changes: {
      $0.count = 1
    }
  }

  @Test func noOperationComparesTheValueWithItself() {
    let stats = Stats(count: 1)
    withKnownIssue {
      expectDifference(stats) { $0.count = 2 }
    } matching: { issue in
      issue.description.contains("Difference: …\n\n    Stats(\n  −   count: 2,\n  +   count: 1,")
    }
  }

  @Test func undescribedChangesReportADiff() {
    var stats = Stats()
    withKnownIssue {
      expectDifference(stats, "Incrementing") {
        stats.count += 1
        stats.maxCount = 1
      } changes: {
        $0.count = 1
      }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        Incrementing - Difference: …

            Stats(
              count: 1,
          −   maxCount: 0
          +   maxCount: 1
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func unequalValuesThatDumpAlikeAreExplained() {
    var opaque = Opaque(hidden: 1)
    withKnownIssue {
      expectDifference(opaque) {
        opaque.hidden = 2
      } changes: { _ in
      }
    } matching: { issue in
      issue.description.contains(
        "expectDifference failed: Values are not equal, but no difference was detected"
      )
    }
  }

  @Test func thrownErrorsAreReported() {
    withKnownIssue {
      expectDifference(1) {
        throw Failure()
      } changes: { _ in
      }
    } matching: { issue in
      issue.description.contains("Caught error: ")
        && issue.description.hasSuffix("Failure()")
    }
  }

  @MainActor
  @Test func asyncOperationsAreAwaited() async {
    let model = Model()
    await expectDifference(model.stats) {
      await model.increment()
    } changes: {
      $0.count = 1
      $0.maxCount = 1
    }
  }

  @MainActor
  @Test func asyncOperationFailuresReportADiff() async {
    let model = Model()
    await withKnownIssue {
      await expectDifference(model.stats) {
        await model.increment()
      } changes: {
        $0.count = 1
      }
    } matching: { issue in
      issue.description.contains("  −   maxCount: 0\n  +   maxCount: 1")
    }
  }
}

// MARK: - Fixtures

private struct Stats: Equatable {
  var count = 0
  var maxCount = 0
}

/// Equality that looks at state the dump does not show.
private struct Opaque: Equatable, CustomDumpReflectable {
  var hidden: Int
  var customDumpMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

private struct Failure: Error {}

private func failing() throws -> Int { throw Failure() }

@MainActor
private final class Model {
  var stats = Stats()

  func increment() async {
    await Task.yield()
    stats.count += 1
    stats.maxCount = max(stats.maxCount, stats.count)
  }
}
