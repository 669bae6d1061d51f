import Sharing
import SharingTesting
import Testing

@Suite struct SharedCustomDumpTests {
  @Test func sharedValueDumpIsMarkedWithItsReference() {
    #expect(String(customDumping: Shared(value: 42)) == "#1 42")
    #expect(String(customDumping: SharedReader(value: "Blob")) == #"#1 "Blob""#)
    #expect(String(customDumping: Shared(value: Tab.profile)) == "#1 Tab.profile")
    #expect(String(customDumping: Shared<Int?>(value: nil)) == "#1 nil")
  }

  @Test func sharedEmptyCollectionIsMarkedWithItsReference() {
    #expect(String(customDumping: Shared(value: [String: Int]())) == "#1 [:]")
    #expect(String(customDumping: Shared(value: [Int]())) == "#1 []")
    var output = ""
    customDump(Shared(value: [String: Int]()), to: &output, maxDepth: 0)
    #expect(output == "#1 [:]")
  }

  @Test func aRepeatOfTheSameReferenceIsMarkedAsARepeat() {
    let count = Shared(value: 0)
    let counts = Counts(
      first: count,
      second: count,
      reader: SharedReader(count),
      other: Shared(value: 1)
    )
    #expect(
      String(customDumping: counts) == """
        Counts(
          _first: #1 0,
          _second: #1 Int(↩︎),
          _reader: #1 Int(↩︎),
          _other: #2 1
        )
        """
    )
  }

  @Test func wrappedSharedPropertyIsLabeledAsItsStorage() {
    let settings = Settings(
      launchCount: Shared(value: 3),
      theme: SharedReader(value: .dark),
      _isOn: true
    )
    #expect(
      String(customDumping: settings) == """
        Settings(
          _launchCount: #1 3,
          _theme: #1 .dark,
          _isOn: true
        )
        """
    )
  }

  @Test func sharedValuesDerivedFromOneReferenceAreMarkedAsThatReference() {
    let stats = Shared(value: Stats())
    #expect(
      String(customDumping: Slices(count: stats.count, stats: stats)) == """
        Slices(
          _count: #1 0,
          _stats: #1 Stats(↩︎)
        )
        """
    )
  }

  @Test func diffOfOneSharedValueInsideAnAssertionComparesItsSnapshotWithItsValue() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    tracker.assert {
      #expect(
        diff(count, count) == """
          - #1 0
          + #1 1
          """
      )
      count.withLock { $0 = 1 }
      #expect(diff(count, count) == nil)
    }
    #expect(diff(count, count) == nil)
  }

  @Test func sharedValueInsideAnAssertionDumpsAsItsSnapshot() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 = 1 } }
    tracker.assert {
      #expect(String(customDumping: count) == "#1 0")
      count.withLock { $0 = 1 }
    }
    #expect(String(customDumping: count) == "#1 1")
  }

  @Test func diffOfStateHoldingASharedValueReadsLikeSwiftSharings() {
    let count = Shared(value: 0)
    let feature = Feature(count: count, mirror: count)
    withKnownIssue {
      expectDifference(feature) {
        count.withLock { $0 = 1 }
      } changes: { _ in
      }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        Difference: …

            Feature(
          −   _count: #1 0,
          +   _count: #1 1,
              _mirror: #1 Int(↩︎)
            )

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func diffOfSharedValuesComparesTheirValues() {
    #expect(
      diff(Shared(value: Tab.counter), Shared(value: Tab.profile)) == """
        - #1 Tab.counter
        + #1 Tab.profile
        """
    )
  }
}

// MARK: - Fixtures

private enum Tab: Equatable {
  case counter
  case profile
}

private enum Theme {
  case light
  case dark
}

private struct Settings {
  @Shared var launchCount: Int
  @SharedReader var theme: Theme
  var _isOn: Bool
}

private struct Counts {
  @Shared var first: Int
  @Shared var second: Int
  @SharedReader var reader: Int
  @Shared var other: Int
}

private struct Stats {
  var count = 0
}

private struct Slices {
  @Shared var count: Int
  @Shared var stats: Stats
}

private struct Feature: Equatable {
  @Shared var count: Int
  @Shared var mirror: Int
}
