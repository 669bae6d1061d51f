import Sharing
import SharingTesting
import Testing

/// Shared state that the feature writes but does not hold in its state.
@Suite struct FeatureTesterVerificationTests {
  @Test func unassertedChangeOfSharedStateOutsideTheStateIsReported() {
    let launches = Shared(value: 0)
    let tester = FeatureTester<Screen, Action>(initialState: Screen()) { state, _ in
      state.isVisible = true
      launches.withLock { $0 += 1 }
    }
    withKnownIssue {
      tester.send(.appear) { $0.isVisible = true }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        Shared<Int> was not expected to change, but a change occurred: …

          − 0
          + 1

        (Expected: −, Actual: +)
        """
      )
    }
  }

  @Test func sharedStateOutsideTheStateIsAssertedInTheTrailingClosure() {
    let launches = Shared(value: 0)
    let tester = FeatureTester<Screen, Action>(initialState: Screen()) { _, _ in
      launches.withLock { $0 += 1 }
    }
    tester.send(.appear) { _ in
      launches.withLock { $0 += 1 }
    }
    tester.send(.appear) { _ in
      launches.withLock { $0 = 2 }
    }
  }

  @Test func derivedSharedStateIsAssertedThroughItsParent() {
    let profile = Shared(value: Profile())
    let tester = FeatureTester<NameField, Action>(initialState: NameField(name: profile.name)) {
      state,
      _ in
      state.$name.withLock { $0 = "Blob" }
    }
    tester.send(.appear) {
      $0.$name.withLock { $0 = "Blob" }
    }
    #expect(profile.wrappedValue.name == "Blob")
  }

  @Test func changeOfAParentThatTheStateDoesNotShowIsReported() {
    let profile = Shared(value: Profile())
    let tester = FeatureTester<NameField, Action>(initialState: NameField(name: profile.name)) {
      _,
      _ in
      profile.withLock { $0.age = 42 }
    }
    withKnownIssue {
      tester.send(.appear)
    } matching: { issue in
      issue.description.contains(
        """
        Shared<Profile> was not expected to change, but a change occurred: …

            Profile(
              name: "",
          −   age: 0
          +   age: 42
            )
        """
      )
    }
  }
}

// MARK: - Fixtures

private enum Action {
  case appear
}

private struct Screen: Equatable {
  var isVisible = false
}

private struct Profile: Equatable {
  var name = ""
  var age = 0
}

private struct NameField: Equatable {
  @Shared var name: String
}
