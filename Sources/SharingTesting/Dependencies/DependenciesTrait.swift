public import SharingDependencies
public import Testing

/// A test trait that runs each test, and each case of a parameterized test, with fresh
/// dependency values and optional overrides.
///
/// Create one with ``Testing/Trait/dependency(_:_:)``, ``Testing/Trait/dependencies(_:)`` or
/// ``Testing/Trait/dependencies``:
///
/// ```swift
/// @Test(.dependency(\.uuid, .incrementing))
/// func addingATodo() { … }
///
/// @Suite(.dependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) })
/// struct ReminderTests { … }
///
/// @Test(.dependencies, arguments: [1, 2, 3])
/// func eachCaseStartsFresh(count: Int) { … }
/// ```
///
/// Every dependency a run reads that it does not override resolves to a fresh default value,
/// cached for that run only. Tests are already isolated from each other without the trait,
/// but the cases of a parameterized test, and repeated runs, share a test's cache; the trait
/// gives each of them its own. On a suite, the trait applies to each test in it.
public struct DependenciesTrait: TestTrait, SuiteTrait, TestScoping {
  let updateValues: @Sendable (inout DependencyValues) throws -> Void

  /// Whether a suite applies the trait to each test it contains: always `true`.
  public var isRecursive: Bool { true }

  /// Scopes each test case, and nothing else: a suite or a test function as a whole shares
  /// no values between its cases.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs a test case with fresh dependency values and this trait's overrides.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTestDependencies(updateValues, operation: function)
  }
}

extension Trait where Self == DependenciesTrait {
  /// Overrides a dependency for each run of a test, with fresh values for the rest.
  ///
  /// ```swift
  /// @Test(.dependency(\.uuid, .incrementing))
  /// func addingATodo() {
  ///   let model = TodosModel()
  ///   model.addButtonTapped()
  ///   #expect(model.todos.map(\.id) == [UUID(0)])
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The dependency to override.
  ///   - value: The value to use; evaluated anew for each run, so each case of a
  ///     parameterized test gets its own (`.incrementing` starts over).
  public static func dependency<Value: Sendable>(
    _ keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: @autoclosure @escaping @Sendable () -> Value
  ) -> Self {
    Self { $0[keyPath: keyPath] = value() }
  }

  /// Overrides dependencies for each run of a test, with fresh values for the rest.
  ///
  /// ```swift
  /// @Test(.dependencies {
  ///   $0.uuid = .incrementing
  ///   $0.date = .constant(Date(timeIntervalSince1970: 0))
  /// })
  /// func addingATodo() { … }
  /// ```
  ///
  /// - Parameter updateValues: A closure that overrides dependencies; it runs for each run
  ///   of the test, and reading a dependency in it resolves that run's fresh default.
  public static func dependencies(
    _ updateValues: @escaping @Sendable (inout DependencyValues) throws -> Void
  ) -> Self {
    Self(updateValues: updateValues)
  }

  /// Gives each run of a test fresh dependency values: the default of every dependency is
  /// resolved anew for each case of a parameterized test and each repetition.
  ///
  /// ```swift
  /// @Test(.dependencies, arguments: ["a", "b"])
  /// func eachCaseSeesAnEmptyStore(key: String) { … }
  /// ```
  public static var dependencies: Self {
    Self { _ in }
  }
}
