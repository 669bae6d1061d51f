import SharingDependencies
import Testing

@Suite struct ReportIssueTests {
  struct Failure: Error {}

  @Test func reportedIssueFailsTheCurrentTest() {
    withKnownIssue {
      reportIssue("Something went wrong")
    } matching: { issue in
      issue.description.contains("Something went wrong")
    }
  }

  @Test func reportedErrorNamesTheError() {
    withKnownIssue {
      reportIssue(Failure(), "While saving")
    } matching: { issue in
      issue.description.contains("While saving") && issue.description.contains("Failure")
    }
  }

  @Test func reportedIssuePointsAtTheCallSite() {
    withKnownIssue {
      reportIssue("located")
    } matching: { issue in
      issue.sourceLocation?.fileName == "ReportIssueTests.swift"
    }
  }

  @Test func isTestingIsTrueUnderSwiftTest() {
    #expect(isTesting)
  }
}
