/// A collection of dependencies that is propagated through the task tree.
///
/// Read a dependency with the ``Dependency`` property wrapper, and override dependencies
/// for a scope with ``withDependencies(_:operation:)-(_,()->R)``. Register your own
/// dependency by conforming a type to ``DependencyKey`` and extending this type:
///
/// ```swift
/// extension DependencyValues {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// Values that are not overridden are resolved from the key for the current
/// ``DependencyContext`` and cached: in tests, once per test, so that two tests running in
/// parallel never share a value.
public struct DependencyValues: Sendable {
  @TaskLocal package static var current = DependencyValues()

  private var overrides: [ObjectIdentifier: any Sendable] = [:]
  var contextOverride: DependencyContext?
  /// The cache scope that replaces the current test's, set by the `.dependencies` trait.
  package var cacheScope: CacheScope?
  /// Keys assigned while recording, used by ``prepareDependencies(_:fileID:filePath:line:column:)``.
  var assignments: [Assignment]?

  /// Creates a collection with no overrides: every key resolves to its default value.
  public init() {}

  /// Accesses the dependency of the given key.
  ///
  /// - Parameter key: A type conforming to ``TestDependencyKey``.
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      // NB: Unwrapped before the cast, which would turn a missing override of an optional
      //     value into 'nil'.
      if let override = overrides[ObjectIdentifier(key)], let value = override as? Key.Value {
        return value
      }
      return DependencyCache.shared.value(
        for: Key.self,
        context: context,
        scope: resolvedCacheScope
      )
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
      assignments?.append(
        Assignment(key: ObjectIdentifier(key), name: String(reflecting: key), value: newValue)
      )
    }
  }

  /// The scope resolved values are cached in: the trait's, then the running test's.
  var resolvedCacheScope: CacheScope? {
    if let cacheScope { return cacheScope }
    guard DependencyContext.detected == .test else { return nil }
    return TestFrameworkBridge.current?.currentTestID.map { CacheScope.test(TestID($0)) }
  }

  /// Returns these values with every override of `other` applied on top.
  func merging(_ other: DependencyValues) -> DependencyValues {
    var merged = self
    merged.overrides.merge(other.overrides) { _, new in new }
    merged.contextOverride = other.contextOverride ?? contextOverride
    merged.cacheScope = other.cacheScope ?? cacheScope
    return merged
  }
}

extension DependencyValues {
  /// A key assigned during ``prepareDependencies(_:fileID:filePath:line:column:)``.
  struct Assignment: Sendable {
    let key: ObjectIdentifier
    let name: String
    let value: any Sendable
  }

  /// Where resolved values are cached, apart from the process-wide cache.
  package enum CacheScope: Hashable, Sendable {
    /// The test with this identifier.
    case test(TestID)
    /// A fresh scope that no other test shares.
    case isolated(Int)
  }
}

/// The identifier of a running test, as the test framework gives it.
package struct TestID: Hashable, @unchecked Sendable {
  // NB: Unchecked because 'AnyHashable' is not 'Sendable'; it only ever wraps the
  //     'Sendable' value given to 'init'.
  private let base: AnyHashable

  package init(_ base: some Hashable & Sendable) {
    self.base = AnyHashable(base)
  }
}
