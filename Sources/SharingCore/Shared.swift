import SharingDependencies
// NB: Public: the box's flag is read in code inlined into callers of 'Shared'.
public import Synchronization

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
  @usableFromInline let box: SharedBox<Value>

  /// The reference this value and its copies use now.
  var reference: any SharedReference<Value> { box.reference }

  @usableFromInline
  init(reference: any SharedReference<Value>) {
    self.box = SharedBox(reference)
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
    @inlinable get { box.read() }
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
    nonmutating set { box.repoint(to: newValue.reference) }
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
    // NB: Inlined, so that the result and the error keep the caller's types: the reference is
    //     handed a closure that only returns whether `operation` threw.
    var result: Result<R, E>?
    box.modify { value in
      do throws(E) {
        result = .success(try operation(&value))
        return true
      } catch {
        result = .failure(error)
        return false
      }
    }
    return try result.unsafelyUnwrapped.get()
  }
}

extension Shared: Sendable where Value: Sendable {}

/// What a ``Shared`` or ``SharedReader`` and its copies hold: the reference they use now.
///
/// Assigning a projected value and ``Shared/load(_:)`` re-point the box, and so every copy
/// holding it; values derived earlier keep the reference they were derived from.
@usableFromInline
final class SharedBox<Value>: @unchecked Sendable {
  // Unchecked: 'repointed' is only accessed with 'lock' held.
  @usableFromInline let initial: any SharedReference<Value>
  @usableFromInline let isRepointed = Atomic<Bool>(false)
  private let lock = Lock()
  private var repointed: (any SharedReference<Value>)?

  @usableFromInline
  init(_ reference: any SharedReference<Value>) {
    self.initial = reference
  }

  /// The reference in use: the first one, until the box is re-pointed.
  @inlinable
  var reference: any SharedReference<Value> {
    guard isRepointed.load(ordering: .acquiring) else { return initial }
    return repointedReference()
  }

  /// The value of the reference in use.
  @inlinable
  func read() -> Value {
    // NB: Not 'reference.read()': reading through the stored reference borrows it, where a
    //     copy of it would be retained and released on every read.
    guard isRepointed.load(ordering: .acquiring) else { return initial.read() }
    return repointedReference().read()
  }

  /// Mutates the value of the reference in use; see ``SharedReference/modify(_:)``.
  @inlinable
  func modify(_ body: (inout Value) -> Bool) {
    guard isRepointed.load(ordering: .acquiring) else { return initial.modify(body) }
    repointedReference().modify(body)
  }

  @usableFromInline
  func repointedReference() -> any SharedReference<Value> {
    lock.withLock { repointed ?? initial }
  }

  /// Uses `reference` from now on, telling those who observe the value that it changed.
  func repoint(to reference: any SharedReference<Value>) {
    let current = self.reference
    guard current !== reference else { return }
    current.root.notifyingObservers {
      lock.withLock { repointed = reference }
      isRepointed.store(true, ordering: .releasing)
    }
  }
}
