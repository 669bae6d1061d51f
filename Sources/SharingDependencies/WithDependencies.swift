/// Overrides dependencies for the duration of an operation.
///
/// ```swift
/// let model = withDependencies {
///   $0.uuid = .incrementing
/// } operation: {
///   TodosModel()
/// }
/// ```
///
/// Overrides nest, and reach child tasks created by the operation (`Task {}`, `async let`,
/// task groups), but not detached tasks.
///
/// - Parameters:
///   - updateValuesForOperation: A closure that updates the current values.
///   - operation: The operation to run with the updated values.
/// - Returns: The result of `operation`.
@discardableResult
public func withDependencies<R>(
  _ updateValuesForOperation: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try updateValuesForOperation(&values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Overrides dependencies for the duration of an asynchronous operation.
///
/// - Parameters:
///   - isolation: The actor the operation runs on; inferred from the caller.
///   - updateValuesForOperation: A closure that updates the current values.
///   - operation: The operation to run with the updated values.
/// - Returns: The result of `operation`.
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ updateValuesForOperation: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try await updateValuesForOperation(&values)
  return try await DependencyValues.$current.withValue(values, operation: operation)
}

/// Overrides dependencies once, at the start of the program, before any of them is read.
///
/// ```swift
/// @main
/// struct App {
///   static func main() {
///     prepareDependencies { $0.defaultFileStorage = .inMemory }
///     …
///   }
/// }
/// ```
///
/// > Important: Preparing a dependency that was already read (or prepared) reports an issue
/// > and leaves the existing value in place.
///
/// - Parameters:
///   - updateValues: A closure that assigns the values to prepare.
///   - fileID: The file ID of the call site, for the issue reported if it is too late.
///   - filePath: The file path of the call site.
///   - line: The line of the call site.
///   - column: The column of the call site.
public func prepareDependencies(
  _ updateValues: (inout DependencyValues) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) rethrows {
  var values = DependencyValues.current
  values.uniqueStorage.assignments = []
  try updateValues(&values)
  let scope = values.resolvedCacheScope
  for assignment in values.storage.assignments ?? [] {
    // The cache keeps a value read or prepared before, and returns it.
    let cached = DependencyCache.shared.cache(
      assignment.value,
      for: assignment.key,
      context: values.context,
      scope: scope
    )
    if cached !== assignment.value {
      reportIssue(
        """
        '\(assignment.name)' was already read or prepared, so \
        'prepareDependencies' left it unchanged. Prepare dependencies at the very start of \
        the program, before anything reads them.
        """,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
    }
  }
}
