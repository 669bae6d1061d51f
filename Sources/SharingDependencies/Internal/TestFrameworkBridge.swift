/// What the dependency system needs from a test framework, provided at run time by
/// `SharingTesting` so that production code never links XCTest or Swift Testing.
package protocol TestFrameworkBridgeProtocol: AnyObject, Sendable {
  /// Creates the bridge; ``TestFrameworkBridge/current`` creates one per process.
  init()

  /// An identifier of the test running in the current task, if any.
  var currentTestID: (any Hashable & Sendable)? { get }

  /// Records an issue in the running test; returns `false` if no test is running.
  func recordIssue(
    _ message: String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) -> Bool
}

/// Finds the bridge that `SharingTesting` provides, when it is linked into the process.
enum TestFrameworkBridge {
  /// The bridge, created the first time it is needed; `nil` outside tests.
  static let current: (any TestFrameworkBridgeProtocol)? = {
    guard isTesting else { return nil }
    let type = _typeByName("SharingTesting._TestFrameworkBridge")
    guard let type = type as? any TestFrameworkBridgeProtocol.Type else {
      RuntimeWarning.print(
        """
        'SharingTesting' is not linked into this test binary, so dependency values are not \
        isolated per test and reported issues do not fail tests. Add 'SharingTesting' to the \
        dependencies of your test target.
        """,
        fileID: #fileID,
        line: #line
      )
      return nil
    }
    return type.init()
  }()
}
