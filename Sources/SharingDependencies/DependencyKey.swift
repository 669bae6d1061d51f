/// A key for accessing a dependency that only has a test (and preview) implementation.
///
/// Conform to this protocol in a module that does not want to depend on a live
/// implementation, then extend the conformance with ``DependencyKey`` where the live value
/// is available:
///
/// ```swift
/// private enum APIClientKey: TestDependencyKey {
///   static let testValue = APIClient.unimplemented
/// }
/// extension DependencyValues {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
public protocol TestDependencyKey<Value> {
  /// The type of value the key resolves to.
  associatedtype Value: Sendable = Self

  /// The value used when running in a preview (``DependencyContext/preview``).
  ///
  /// Defaults to ``testValue`` for keys without a live value, and to
  /// ``DependencyKey/liveValue`` for keys that have one.
  static var previewValue: Value { get }

  /// The value used when running tests (``DependencyContext/test``).
  static var testValue: Value { get }
}

/// A key for accessing a dependency that has a live implementation.
///
/// ```swift
/// private enum ClockKey: DependencyKey {
///   static let liveValue = SystemClock()
///   static let testValue = ImmediateClock()
/// }
/// ```
///
/// > Important: A key that does not provide ``TestDependencyKey/testValue`` reports an issue
/// > the first time it is read in a test, then falls back to its preview (or live) value.
public protocol DependencyKey<Value>: TestDependencyKey {
  /// The type of value the key resolves to.
  associatedtype Value = Self

  /// The value used when the program runs for real (``DependencyContext/live``).
  static var liveValue: Value { get }

  /// The value used when running in a preview. Defaults to ``liveValue``.
  static var previewValue: Value { get }

  /// The value used when running tests. Defaults to ``previewValue`` and reports an issue.
  static var testValue: Value { get }
}

extension TestDependencyKey {
  /// Falls back to the test value.
  public static var previewValue: Value { Self.testValue }
}

extension DependencyKey {
  /// Falls back to the live value.
  public static var previewValue: Value { Self.liveValue }

  /// Reports that the key has no test implementation, then falls back to the preview value.
  public static var testValue: Value {
    reportIssue(
      """
      A dependency has no test implementation, but was read from a test context:

        Key: \(String(reflecting: Self.self))
        Value: \(String(reflecting: Value.self))

      Give the key a 'testValue', or override the dependency in this test with \
      'withDependencies' or the '.dependency' trait.
      """
    )
    return Self.previewValue
  }
}
