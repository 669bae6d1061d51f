import SharingDependencies

/// Where a test helper was called, so that the issues it reports point there.
struct CallSite {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// Reports `message`, if there is one.
  func report(_ message: String?) {
    guard let message else { return }
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  func report(_ error: any Error, _ message: String? = nil) {
    reportIssue(error, message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
