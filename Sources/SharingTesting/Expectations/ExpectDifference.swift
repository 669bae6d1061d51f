import SharingCore

/// Expects an operation to change a value exactly as described.
///
/// The value is evaluated before and after `operation`; `changes` applies the expected
/// mutations to the value from before, and the result must equal the value from after.
///
/// ```swift
/// expectDifference(model.stats) {
///   model.incrementButtonTapped()
/// } changes: {
///   $0.count = 1
///   $0.numberOfCounts = 1
/// }
/// ```
///
/// A mismatch is reported with a diff of the dumps:
///
/// ```
/// Difference: …
///
///     Stats(
///       count: 1,
///   −   numberOfCounts: 0
///   +   numberOfCounts: 1
///     )
///
/// (Expected: −, Actual: +)
/// ```
///
/// The value may hold ``/SharingCore/Shared`` state: the operation runs under a change tracker, and
/// `changes` runs inside its assertion, so it mutates the shared values' "before" snapshots.
/// Describe a change incrementally (`$0.$stats.withLock { $0.increment() }`) or absolutely
/// (`$0.$stats.withLock { $0 = Stats(count: 1) }`), exactly as for a plain value.
///
/// An error thrown by the expression, the operation or `changes` is reported as an issue.
///
/// - Parameters:
///   - expression: The value to evaluate before and after the operation.
///   - message: A description printed before the failure.
///   - operation: The work that changes the value. Without one, `changes` describes how the
///     value differs from its state before, evaluated twice in a row.
///   - updateValueToExpectedOutcome: Applies the expected changes to the value from before.
///   - fileID: The file ID of the call site.
///   - filePath: The file path of the call site.
///   - line: The line of the call site.
///   - column: The column of the call site.
public func expectDifference<T: Equatable>(
  _ expression: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String? = nil,
  operation: () throws -> Void = {},
  changes updateValueToExpectedOutcome: (inout T) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  do {
    let tracker = ChangeTracker()
    let expected = try expression()
    try tracker.track(operation)
    try site.compare(tracker, expected, expression(), message(), updateValueToExpectedOutcome)
  } catch {
    site.report(error, message())
  }
}

/// Expects an asynchronous operation to change a value exactly as described.
///
/// ```swift
/// await expectDifference(model.stats) {
///   await model.refreshButtonTapped()
/// } changes: {
///   $0.count = 0
/// }
/// ```
///
/// See ``expectDifference(_:_:operation:changes:fileID:filePath:line:column:)`` for details.
///
/// - Parameters:
///   - expression: The value to evaluate before and after the operation.
///   - message: A description printed before the failure.
///   - operation: The work that changes the value.
///   - updateValueToExpectedOutcome: Applies the expected changes to the value from before.
///   - fileID: The file ID of the call site.
///   - filePath: The file path of the call site.
///   - line: The line of the call site.
///   - column: The column of the call site.
///   - isolation: The actor the caller runs on, which the closures also run on.
// Disfavored so that a synchronous operation in an async context needs no `await`.
@_disfavoredOverload
public func expectDifference<T: Equatable>(
  _ expression: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String? = nil,
  operation: () async throws -> Void,
  changes updateValueToExpectedOutcome: (inout T) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation
) async {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  do {
    let tracker = ChangeTracker()
    let expected = try expression()
    try await tracker.track(operation)
    try site.compare(tracker, expected, expression(), message(), updateValueToExpectedOutcome)
  } catch {
    site.report(error, message())
  }
}

extension CallSite {
  /// Reports how `actual` differs from `expected` once `changes` are applied to it, inside
  /// the assertion of `tracker`, which tracked the operation in between.
  fileprivate func compare<T: Equatable>(
    _ tracker: ChangeTracker,
    _ expected: T,
    _ actual: T,
    _ message: String?,
    _ changes: (inout T) throws -> Void
  ) throws {
    var expected = expected
    try tracker.assert { try changes(&expected) }
    let comparison = DumpComparison(expected: expected, actual: actual, tracker: tracker)
    report(comparison.failure(of: "expectDifference", title: "Difference", message))
  }
}
