/// Expects two values to be equal, and reports a diff of their dumps when they are not.
///
/// ```swift
/// expectNoDifference(stats, Stats(count: 1, minCount: 0))
/// // expectNoDifference failed: …
/// //
/// //     Stats(
/// //   −   count: 2,
/// //   +   count: 1,
/// //       minCount: 0
/// //     )
/// //
/// // (Expected: −, Actual: +)
/// ```
///
/// `expression1` is treated as the expected value (lines marked `−`) and `expression2` as the
/// actual value (lines marked `+`). An error thrown by either expression is reported as an
/// issue. If the values are unequal but dump identically, the issue says so.
///
/// - Parameters:
///   - expression1: The expected value.
///   - expression2: The actual value.
///   - message: A description printed before the failure.
///   - fileID: The file ID of the call site.
///   - filePath: The file path of the call site.
///   - line: The line of the call site.
///   - column: The column of the call site.
public func expectNoDifference<T: Equatable>(
  _ expression1: @autoclosure () throws -> T,
  _ expression2: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  do {
    let comparison = DumpComparison(expected: try expression1(), actual: try expression2())
    site.report(comparison.failure(of: "expectNoDifference", message()))
  } catch {
    site.report(error, message())
  }
}
