import Sharing
import SharingTesting
import Testing

@Suite struct SharedCustomDumpTests {
  @Test func sharedValueDumpsAsItsValue() {
    #expect(String(customDumping: Shared(value: 42)) == "42")
    #expect(String(customDumping: SharedReader(value: "Blob")) == #""Blob""#)
    #expect(String(customDumping: Shared(value: Tab.profile)) == "Tab.profile")
    #expect(String(customDumping: Shared<Int?>(value: nil)) == "nil")
  }

  @Test func wrappedSharedPropertyIsLabeledWithItsName() {
    let settings = Settings(
      launchCount: Shared(value: 3),
      theme: SharedReader(value: .dark),
      _isOn: true
    )
    #expect(
      String(customDumping: settings) == """
        Settings(
          launchCount: 3,
          theme: .dark,
          _isOn: true
        )
        """
    )
  }

  @Test func sharedValueInsideAnAssertionDumpsAsItsSnapshot() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 = 1 } }
    tracker.assert {
      #expect(String(customDumping: count) == "0")
      count.withLock { $0 = 1 }
    }
    #expect(String(customDumping: count) == "1")
  }

  @Test func diffOfSharedValuesComparesTheirValues() {
    #expect(
      diff(Shared(value: Tab.counter), Shared(value: Tab.profile)) == """
        − Tab.counter
        + Tab.profile
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
