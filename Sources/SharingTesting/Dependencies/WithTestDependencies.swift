import Foundation
public import SharingDependencies

/// Runs an operation with fresh dependency values, and optional overrides.
///
/// Every dependency the operation reads that it does not override resolves to a fresh
/// default value, cached only for this call: the XCTest counterpart of the `.dependencies`
/// test trait, for work that must not see values cached earlier in the same test, such as
/// each run of a loop:
///
/// ```swift
/// func testEachRunStartsFresh() {
///   for _ in 1...3 {
///     withTestDependencies {
///       $0.uuid = .incrementing
///     } operation: {
///       let model = TodosModel()
///       model.addButtonTapped()
///       XCTAssertEqual(model.todos.map(\.id), [UUID(0)])
///     }
///   }
/// }
/// ```
///
/// To give every test of an `XCTestCase` the same overrides, wrap `invokeTest()`:
///
/// ```swift
/// override func invokeTest() {
///   withTestDependencies {
///     $0.date = .constant(Date(timeIntervalSince1970: 0))
///   } operation: {
///     super.invokeTest()
///   }
/// }
/// ```
///
/// Overrides reach child tasks created by the operation, as with
/// ``/SharingDependencies/withDependencies(_:operation:)``.
///
/// - Parameters:
///   - updateValuesForOperation: A closure that overrides dependencies. Reading a
///     dependency in it resolves the fresh default.
///   - operation: The operation to run.
/// - Returns: The result of `operation`.
@discardableResult
public func withTestDependencies<R>(
  _ updateValuesForOperation: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  try withDependencies {
    $0.cacheScope = DependencyValues.CacheScope(UUID())
    try updateValuesForOperation(&$0)
  } operation: {
    try operation()
  }
}

/// Runs an asynchronous operation with fresh dependency values, and optional overrides.
///
/// ```swift
/// func testRefresh() async {
///   await withTestDependencies {
///     $0.uuid = .incrementing
///   } operation: {
///     await model.refreshButtonTapped()
///   }
/// }
/// ```
///
/// See ``withTestDependencies(_:operation:)-(_,()->R)`` for details.
///
/// - Parameters:
///   - isolation: The actor the operation runs on; inferred from the caller.
///   - updateValuesForOperation: A closure that overrides dependencies.
///   - operation: The operation to run.
/// - Returns: The result of `operation`.
@discardableResult
public func withTestDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ updateValuesForOperation: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  try await withDependencies {
    $0.cacheScope = DependencyValues.CacheScope(UUID())
    try await updateValuesForOperation(&$0)
  } operation: {
    try await operation()
  }
}

/// Runs an operation with fresh dependency values.
///
/// ```swift
/// for _ in 1...3 {
///   withTestDependencies {
///     @Dependency(\.defaultDatabase) var database
///     // A new database for each run.
///   }
/// }
/// ```
///
/// See ``withTestDependencies(_:operation:)-(_,()->R)`` for details.
///
/// - Parameter operation: The operation to run.
/// - Returns: The result of `operation`.
@discardableResult
public func withTestDependencies<R>(operation: () throws -> R) rethrows -> R {
  try withTestDependencies({ _ in }, operation: operation)
}

/// Runs an asynchronous operation with fresh dependency values.
///
/// See ``withTestDependencies(_:operation:)-(_,()->R)`` for details.
///
/// - Parameters:
///   - isolation: The actor the operation runs on; inferred from the caller.
///   - operation: The operation to run.
/// - Returns: The result of `operation`.
@discardableResult
public func withTestDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await withTestDependencies(isolation: isolation, { _ in }, operation: operation)
}
