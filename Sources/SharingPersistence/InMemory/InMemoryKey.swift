public import SharingCore
import SharingDependencies

/// A ``/SharingCore/SharedKey`` that keeps a value in memory for as long as the process runs.
///
/// Create one with ``SharingCore/SharedReaderKey/inMemory(_:)``. Every shared value created with
/// the same name shares the value, even one created after all others went away: the first
/// holder's value, its default included, stays in the store. Nothing is written anywhere, so the
/// value starts over at the next launch, and in each test.
public struct InMemoryKey<Value: Sendable>: SharedKey {
  /// The name of the value and its store.
  public let id: InMemoryKeyID

  init(_ key: String) {
    // NB: Read from the current values, which is what '@Dependency' resolves to when it is
    //     read where it is created, without merging the values into a copy of themselves
    //     and binding that copy as a task local on every creation of a key.
    self.id = InMemoryKeyID(key: key, store: DependencyValues.current.defaultInMemoryStorage)
  }

  /// Loads the value stored under the key, if any.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    // NB: A value of another type may be stored under the same name, which the shared
    //     reference registry reports; this use keeps its default.
    continuation.resume(with: .success(id.storedValue(of: Value.self)))
  }

  /// Nothing but shared values changes the store, so there is nothing to subscribe to.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  /// Stores the value.
  ///
  /// Shared values created from this key never call it: the store keeps their reference,
  /// which holds the value. A key that wraps this one saves through it.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    id.store.entries.withLock { $0[id.key] = .value(value) }
    continuation.resume()
  }
}

extension InMemoryKey: CustomStringConvertible {
  /// The key as written at the call site, e.g. `.inMemory("count")`.
  public var description: String {
    ".inMemory(\(String(reflecting: id.key)))"
  }
}

extension SharedReaderKey {
  /// A key that keeps a value in memory, shared by name for as long as the process runs.
  ///
  /// ```swift
  /// @Shared(.inMemory("isOnboarded")) var isOnboarded = false
  /// ```
  ///
  /// The store is ``SharingDependencies/DependencyValues/defaultInMemoryStorage`` at the time the
  /// key is created, so each test starts with an empty one.
  ///
  /// - Parameter key: The name of the value.
  /// - Returns: An in-memory key.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(key)
  }
}
