import SharingDependencies

/// Where a test helper was called, so that the issues it reports point there.
struct CallSite {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  func report(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  func report(_ error: any Error) {
    reportIssue(error, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
