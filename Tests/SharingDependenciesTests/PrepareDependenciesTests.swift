import SharingDependencies
import Testing

@Suite struct PrepareDependenciesTests {
  @Test func preparedValueIsReadLater() {
    prepareDependencies { $0.prepared = "prepared" }
    @Dependency(\.prepared) var prepared
    #expect(prepared == "prepared")
  }

  @Test func preparingAfterAReadReportsAnIssueAndKeepsTheValue() {
    @Dependency(\.prepared) var prepared
    #expect(prepared == "default")
    withKnownIssue {
      prepareDependencies { $0.prepared = "too late" }
    } matching: { issue in
      issue.description.contains("PreparedKey")
        && issue.description.contains("was already read or prepared")
    }
    #expect(prepared == "default")
  }

  @Test func preparingTwiceReportsAnIssue() {
    prepareDependencies { $0.prepared = "first" }
    withKnownIssue {
      prepareDependencies { $0.prepared = "second" }
    }
    @Dependency(\.prepared) var prepared
    #expect(prepared == "first")
  }
}
