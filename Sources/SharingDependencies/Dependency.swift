/// A property wrapper that reads a dependency from ``DependencyValues``.
///
/// ```swift
/// final class TodosModel {
///   @Dependency(\.uuid) var uuid
///   @Dependency(\.date.now) var now
/// }
/// ```
///
/// The wrapper remembers the overrides in effect when it was created, so an object created
/// inside ``withDependencies(_:operation:)-(_,()->R)`` keeps seeing those values later.
/// Overrides in effect where the value is read take precedence.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let initialValues: DependencyValues
  private let keyPath: any KeyPath<DependencyValues, Value> & Sendable

  /// Creates a wrapper that reads the dependency at the given key path.
  ///
  /// - Parameter keyPath: A key path to a property of ``DependencyValues``.
  public init(_ keyPath: any KeyPath<DependencyValues, Value> & Sendable) {
    self.initialValues = DependencyValues.current
    self.keyPath = keyPath
  }

  /// Creates a wrapper that reads the dependency of the given key type.
  ///
  /// - Parameter key: A type conforming to ``TestDependencyKey``.
  public init<Key: TestDependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.init(\DependencyValues.[key: HashableType<Key>()])
  }

  /// The current value of the dependency.
  public var wrappedValue: Value {
    let values = initialValues.merging(DependencyValues.current)
    return DependencyValues.$current.withValue(values) { values[keyPath: keyPath] }
  }
}

/// A hashable stand-in for a key type, so that a key type can appear in a key path.
struct HashableType<Key: TestDependencyKey>: Hashable, Sendable {}

extension DependencyValues {
  subscript<Key: TestDependencyKey>(key key: HashableType<Key>) -> Key.Value {
    self[Key.self]
  }
}
