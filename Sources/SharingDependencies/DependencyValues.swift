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

  /// The fields, in one object copied on write: a dependency read copies the values out of
  /// their task local, which is then one retain.
  @usableFromInline var storage = Storage()

  /// The storage, for changing a field: copied first if another value shares it.
  var uniqueStorage: Storage {
    mutating get {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
      return storage
    }
  }

  /// The cache scope that replaces the current test's, set by the `.dependencies` trait.
  package var cacheScope: CacheScope? {
    get { storage.cacheScope }
    set { uniqueStorage.cacheScope = newValue }
  }

  /// Creates a collection with no overrides: every key resolves to its default value.
  public init() {}

  /// Accesses the dependency of the given key.
  ///
  /// - Parameter key: A type conforming to ``TestDependencyKey``.
  @inlinable
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      // An override, or a value resolved and cached, is always a box of the key's value type.
      let boxed = storage.overrides[ObjectIdentifier(key)] ?? resolvedValue(for: key)
      return unsafeDowncast(boxed, to: TypedOverride<Key.Value>.self).value
    }
    set { setOverride(newValue, for: key) }
  }

  /// The value `key` resolves to when it is not overridden, cached per context and scope,
  /// boxed as an override is.
  @usableFromInline
  func resolvedValue<Key: TestDependencyKey>(for key: Key.Type) -> Override {
    let (context, scope, cache) = (self.context, resolvedCacheScope, DependencyCache.shared)
    if let cached = cache.cachedValue(for: ObjectIdentifier(key), context: context, scope: scope) {
      return cached
    }
    // Resolved outside the cache's lock: a default value may read other dependencies.
    let resolved = DependencyResolution.building {
      TypedOverride(DependencyCache.resolve(key, in: context))
    }
    return cache.cache(resolved, for: ObjectIdentifier(key), context: context, scope: scope)
  }

  /// Overrides `key` with `value`, recording the assignment while recording.
  @usableFromInline
  mutating func setOverride<Key: TestDependencyKey>(_ value: Key.Value, for key: Key.Type) {
    let boxed = TypedOverride(value)
    uniqueStorage.overrides[ObjectIdentifier(key)] = boxed
    uniqueStorage.assignments?.append(
      Assignment(key: ObjectIdentifier(key), name: String(reflecting: key), value: boxed)
    )
  }

  /// The scope resolved values are cached in: the trait's, then the running test's.
  package var resolvedCacheScope: CacheScope? {
    if let cacheScope { return cacheScope }
    guard DependencyContext.detected == .test else { return nil }
    return TestFrameworkBridge.current?.currentTestID.map { CacheScope($0) }
  }

  /// Returns these values with every override of `other` applied on top.
  func merging(_ other: DependencyValues) -> DependencyValues {
    var merged = self
    let mergedStorage = merged.uniqueStorage
    mergedStorage.overrides.merge(other.storage.overrides) { _, new in new }
    mergedStorage.contextOverride = other.storage.contextOverride ?? storage.contextOverride
    mergedStorage.cacheScope = other.cacheScope ?? cacheScope
    return merged
  }
}

extension DependencyValues {
  /// The fields of a ``DependencyValues``, shared by its copies until one is changed.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    // Unchecked: a storage is only changed while one value holds it, and is immutable once
    // shared; so are its accesses' exclusivity checks.
    /// Each key's overriding value.
    @usableFromInline @exclusivity(unchecked) var overrides: [ObjectIdentifier: Override] = [:]
    @exclusivity(unchecked) var contextOverride: DependencyContext?
    @exclusivity(unchecked) var cacheScope: CacheScope?
    /// Keys assigned while recording, used by
    /// ``prepareDependencies(_:fileID:filePath:line:column:)``.
    @exclusivity(unchecked) var assignments: [Assignment]?

    init() {}

    init(copying other: Storage) {
      overrides = other.overrides
      contextOverride = other.contextOverride
      cacheScope = other.cacheScope
      assignments = other.assignments
    }
  }

  /// An overriding value of a key, boxed with its type: a ``TypedOverride``.
  @usableFromInline typealias Override = any AnyObject & Sendable

  /// An overriding value of type `Value`.
  @usableFromInline
  final class TypedOverride<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline init(_ value: Value) {
      self.value = value
    }
  }

  /// A key assigned during ``prepareDependencies(_:fileID:filePath:line:column:)``.
  struct Assignment: Sendable {
    let key: ObjectIdentifier
    let name: String
    let value: Override
  }

  /// Where resolved values are cached, apart from the process-wide cache: a running test, or
  /// a scope of its own that no test shares.
  package final class CacheScope: Hashable, @unchecked Sendable {
    // Unchecked: 'AnyHashable' only wraps the 'Sendable' value given to 'init'.
    // NB: A class, so that copying dependency values, which hold a scope, copies one reference
    //     rather than an existential (about 340 instructions more per shared value created).
    private let id: AnyHashable

    /// The scope identified by `id`: a test's identifier, as its framework gives it, or a new
    /// value (a `UUID`) for a scope of its own.
    package init(_ id: some Hashable & Sendable) {
      self.id = AnyHashable(id)
    }

    package static func == (lhs: CacheScope, rhs: CacheScope) -> Bool { lhs.id == rhs.id }

    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
  }
}
