import Foundation
import SharingDependencies
import Testing

@Suite struct DependencyValuesTests {
  @Test func unoverriddenKeyResolvesToItsTestValueInTests() {
    @Dependency(\.greeting) var greeting
    #expect(greeting == "test")
    #expect(DependencyValues().context == .test)
  }

  @Test func withDependenciesOverridesForTheOperationOnly() {
    @Dependency(\.greeting) var greeting
    withDependencies {
      $0.greeting = "overridden"
    } operation: {
      #expect(greeting == "overridden")
    }
    #expect(greeting == "test")
  }

  @Test func nestedOverridesInheritOuterValues() {
    withDependencies {
      $0.greeting = "outer"
      $0.uuid = .incrementing
    } operation: {
      withDependencies {
        $0.greeting = "inner"
      } operation: {
        @Dependency(\.greeting) var greeting
        @Dependency(\.uuid) var uuid
        #expect(greeting == "inner")
        #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
      }
    }
  }

  @Test func updateClosureSeesCurrentValues() {
    withDependencies {
      $0.greeting = "first"
    } operation: {
      withDependencies {
        $0.greeting += " then second"
      } operation: {
        @Dependency(\.greeting) var greeting
        #expect(greeting == "first then second")
      }
    }
  }

  @Test func contextOverrideSelectsLiveAndPreviewValues() {
    withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.greeting) var greeting
      #expect(greeting == "live")
    }
    withDependencies {
      $0.context = .preview
    } operation: {
      @Dependency(\.greeting) var greeting
      #expect(greeting == "preview")
    }
  }

  @Test func asyncWithDependenciesOverridesAcrossSuspension() async {
    await withDependencies {
      $0.greeting = "async"
    } operation: {
      await Task.yield()
      @Dependency(\.greeting) var greeting
      #expect(greeting == "async")
    }
  }

  @Test func liveOnlyKeyReadInATestReportsAnIssueAndFallsBackToLive() {
    withKnownIssue {
      @Dependency(\.liveOnly) var liveOnly
      #expect(liveOnly == 42)
    } matching: { issue in
      issue.description.contains("has no test implementation")
        && issue.description.contains("LiveOnlyKey")
    }
  }

  @Test func testOnlyKeyReadInALiveContextReportsAnIssueAndFallsBackToTest() {
    withDependencies {
      $0.context = .live
    } operation: {
      withKnownIssue {
        @Dependency(\.testOnly) var testOnly
        #expect(testOnly == "test only")
      } matching: { issue in
        issue.description.contains("has no live implementation")
      }
    }
  }
}
