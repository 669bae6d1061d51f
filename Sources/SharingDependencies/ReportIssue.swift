import Foundation

/// Reports a problem without stopping the program.
///
/// In a test (Swift Testing or XCTest, when `SharingTesting` is linked into the test
/// binary) the issue fails the current test, so it can be expected with `withKnownIssue`.
/// Outside tests it prints a runtime warning to standard error.
///
/// - Parameters:
///   - message: A description of the problem.
///   - fileID: The file ID of the call site.
///   - filePath: The file path of the call site.
///   - line: The line of the call site.
///   - column: The column of the call site.
public func reportIssue(
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let message = message() ?? "Issue reported"
  if isTesting,
    let bridge = TestFrameworkBridge.current,
    bridge.recordIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  {
    return
  }
  RuntimeWarning.print(message, fileID: fileID, line: line)
}

/// Reports an error without stopping the program.
///
/// - Parameters:
///   - error: The error to report.
///   - message: Extra context for the error.
///   - fileID: The file ID of the call site.
///   - filePath: The file path of the call site.
///   - line: The line of the call site.
///   - column: The column of the call site.
public func reportIssue(
  _ error: any Error,
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let description = "Caught error: \(error)"
  reportIssue(
    message().map { "\($0)\n\n\(description)" } ?? description,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
}

/// Prints runtime warnings to standard error, highlighted when it is a terminal.
enum RuntimeWarning {
  private static let isTerminal = isatty(STDERR_FILENO) != 0

  static func print(_ message: String, fileID: StaticString, line: UInt) {
    let text = "[Sharing] \(fileID):\(line): warning: \(message)\n"
    let output = isTerminal ? "\u{1B}[35m\(text)\u{1B}[0m" : text
    FileHandle.standardError.write(Data(output.utf8))
  }
}
