/// A property wrapper for state shared by many parts of a program, optionally persisted.
///
/// Hold the same value in several features and keep them in sync:
///
/// ```swift
/// @Shared(.appStorage("launchCount")) var launchCount = 0
/// $launchCount.withLock { $0 += 1 }
/// ```
///
/// A `Shared` is a reference to its value: copies of it, values derived from it with
/// `$value.member`, and every `Shared` created from keys with the same identity read and
/// write one value. Mutate it with ``withLock(_:)``, which gives exclusive access.
///
/// Reads are tracked by Swift Observation (`withObservationTracking`, `Observations`), and
/// ``values`` is an `AsyncSequence` of the value and its changes.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
  @usableFromInline let reference: SharedReference<Value>

  @usableFromInline
  init(reference: SharedReference<Value>) {
    self.reference = reference
  }

  /// Creates a shared value that is not persisted.
  ///
  /// ```swift
  /// let stats = Shared(value: Stats())
  /// ```
  ///
  /// - Parameter value: The initial value.
  public init(value: sending Value) {
    self.init(reference: RootReference(value: value))
  }

  /// Creates a shared value from another one, sharing its reference.
  ///
  /// - Parameter projectedValue: The shared value to share.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The current value.
  ///
  /// Assigning it directly is deprecated: use ``withLock(_:)`` so that a read-modify-write
  /// cannot interleave with another thread's.
  public var wrappedValue: Value {
    @inlinable get { reference.resolvedRead() }
    @available(
      *,
      deprecated,
      message: "Use '$shared.withLock' to modify a shared value with exclusive access."
    )
    nonmutating set { withLock { $0 = newValue } }
  }

  /// The shared value itself, reached with `$` syntax.
  ///
  /// Assigning it makes this shared value, and every copy of it, use another reference. Values
  /// derived from it earlier (`$value.member`, `$value.read { … }`, `SharedReader($value)`)
  /// keep reading the old one.
  public var projectedValue: Shared<Value> {
    get { self }
    nonmutating set { reference.redirect(to: newValue.reference.resolved) }
  }

  /// Mutates the value with exclusive access.
  ///
  /// ```swift
  /// $count.withLock { $0 += 1 }
  /// $todos.withLock { $0.append(todo) }
  /// ```
  ///
  /// The body runs while other writers wait; reading the value inside it is allowed.
  /// Observers are notified and persisted values saved after it returns: a call hands the
  /// key at most its own change and one made by another thread meanwhile, and may wait for
  /// at most one save in progress, however long other threads keep writing.
  ///
  /// - Parameter operation: A closure that mutates the value in place.
  /// - Returns: The result of `operation`.
  @inlinable
  public func withLock<R, E: Error>(_ operation: (inout Value) throws(E) -> R) throws(E) -> R {
    try reference.resolvedWithLock(operation)
  }
}

extension Shared: Sendable where Value: Sendable {}
