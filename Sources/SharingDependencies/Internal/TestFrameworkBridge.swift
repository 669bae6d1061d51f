/// What the dependency system needs from a test framework, provided at run time by
/// `SharingTesting` so that production code never links XCTest or Swift Testing.
package protocol TestFrameworkBridgeProtocol: AnyObject, Sendable {
  /// The bridge instance.
  static var shared: any TestFrameworkBridgeProtocol { get }

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
  /// The name `SharingTesting` gives its bridge type.
  static let typeName = "SharingTesting._TestFrameworkBridge"

  static let current: (any TestFrameworkBridgeProtocol)? = {
    guard isTesting else { return nil }
    guard let type = _typeByName(typeName) as? any TestFrameworkBridgeProtocol.Type else {
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
    return type.shared
  }()
}
