import Foundation
public import SharingDependencies
import Testing
import XCTest

/// Connects the dependency system to Swift Testing and XCTest.
///
/// Production modules find this type by name at run time (see `TestFrameworkBridgeProtocol`),
/// so they never link a test framework themselves.
public final class _TestFrameworkBridge: TestFrameworkBridgeProtocol {
  private let xctest = XCTestRunObserver()

  package init() {
    XCTestObservationCenter.shared.addTestObserver(xctest)
  }

  package var currentTestID: (any Hashable & Sendable)? {
    if let test = Test.current { return test.id }
    // Off a Swift Testing test's task (a dispatch queue, a detached task) no test is
    // known; an XCTest identity there would put every test's such reads in one scope.
    return xctest.currentTestID
  }

  package func recordIssue(
    _ message: String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) -> Bool {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: "\(fileID)",
          filePath: "\(filePath)",
          line: Int(line),
          column: Int(column)
        )
      )
      return true
    }
    guard xctest.currentTestID != nil else { return false }
    XCTFail(message, file: filePath, line: line)
    return true
  }
}

/// Follows XCTest's test cases, which run one at a time, to give each its own identity.
private final class XCTestRunObserver: NSObject, XCTestObservation, Sendable {
  /// How many test cases started, and the number of the one running, `nil` when none runs.
  ///
  /// The observer is registered from inside the first test that needs it, so it misses that
  /// test's start: it assumes XCTest runs one, unless this process runs Swift Testing
  /// (`swift test` runs each library in a process of its own).
  private let state = Locked(
    (started: 0, running: ProcessInfo.processInfo.arguments.contains("--testing-library") ? nil : 0)
  )

  /// The running test case's identity, or `nil` when none runs.
  var currentTestID: String? {
    state.withLock { $0.running.map { "xctest-\($0)" } }
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    state.withLock {
      $0.started += 1
      $0.running = $0.started
    }
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    state.withLock { $0.running = nil }
  }
}
