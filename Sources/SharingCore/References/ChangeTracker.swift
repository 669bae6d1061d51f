import SharingDependencies

/// Records the value each shared root had before its first write, so a test can compare
/// "before" and "after" although shared state lives in references (the hook behind
/// `SharingTesting`'s change tracking).
///
/// While ``track(_:)`` runs, the first write to each root snapshots the old value. While
/// ``assert(_:)`` runs, reads and writes of roots with a snapshot go to the snapshot, so
/// expected mutations can be applied to the "before" value.
package final class ChangeTracker: Sendable {
  /// A root's value before its first tracked write.
  package struct Snapshot: @unchecked Sendable {
    // Unchecked: 'value' holds a shared value's type-erased copy; shared values in tracked
    // references are only ever 'Sendable' values or used from the test's task.
    package var value: Any
    /// The identity of the root, stable for as long as it is tracked.
    package let id: ObjectIdentifier
    /// Reads the root's current value, ignoring any assertion in progress.
    package let current: @Sendable () -> Any
    /// Describes the key the root is persisted with, lazily: a key's description is its own
    /// code, and snapshots are taken with the root locked.
    private let describeKey: @Sendable () -> String?

    /// The key the root is persisted with, described as at its call site; `nil` for a
    /// value created with `Shared(value:)`.
    package var key: String? { describeKey() }

    init<Value>(root: RootReference<Value>, value: Value) {
      self.value = value
      self.id = ObjectIdentifier(root)
      self.current = { [root] in root.readUntracked() }
      self.describeKey = { [root] in root.keyDescription }
    }
  }

  private let snapshots = Locked<[ObjectIdentifier: Snapshot]>([:])

  package init() {}

  /// Whether any shared value was written since the tracker was created or reset.
  package var hasChanges: Bool { snapshots.withLock { !$0.isEmpty } }

  /// The snapshots taken, in no particular order.
  package var allSnapshots: [Snapshot] { snapshots.withLock { Array($0.values) } }

  /// Forgets every snapshot.
  package func reset() { snapshots.withLock { $0.removeAll() } }

  /// Runs an operation, snapshotting shared values before their first write.
  package func track<R>(_ operation: () throws -> R) rethrows -> R {
    SharedTracking.beginScope()
    defer { SharedTracking.endScope() }
    return try SharedTracking.$trackers.withValue(
      SharedTracking.trackers + [self],
      operation: operation
    )
  }

  /// Runs an asynchronous operation, snapshotting shared values before their first write.
  package func track<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    SharedTracking.beginScope()
    defer { SharedTracking.endScope() }
    return try await SharedTracking.$trackers.withValue(
      SharedTracking.trackers + [self],
      operation: operation
    )
  }

  /// Runs an operation in which tracked shared values read and write their snapshots.
  package func assert<R>(_ operation: () throws -> R) rethrows -> R {
    SharedTracking.beginScope()
    defer { SharedTracking.endScope() }
    return try SharedTracking.$asserting.withValue(self, operation: operation)
  }

  /// Runs an operation in which shared values read their current values, even inside
  /// ``assert(_:)``.
  package static func withoutAsserting<R>(_ operation: () throws -> R) rethrows -> R {
    try SharedTracking.$asserting.withValue(nil, operation: operation)
  }

  func snapshotIfNeeded<Value>(_ root: RootReference<Value>, value: Value) {
    let id = ObjectIdentifier(root)
    snapshots.withLock { snapshots in
      guard snapshots[id] == nil else { return }
      snapshots[id] = Snapshot(root: root, value: value)
    }
  }

  func snapshot<Value>(of root: RootReference<Value>) -> Value? {
    // NB: Unwrapped before the cast, which would turn a missing snapshot of an optional value
    //     into a snapshot of 'nil'.
    guard let snapshot = snapshots.withLock({ $0[ObjectIdentifier(root)]?.value }) else {
      return nil
    }
    return snapshot as? Value
  }

  /// Applies an expected mutation to a root's snapshot (its current value if it has none).
  func mutateSnapshot<Value, R, E: Error>(
    of root: RootReference<Value>,
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    var value = snapshot(of: root) ?? root.readUntracked()
    // The body runs outside the lock: it may read other shared values.
    let result = try body(&value)
    snapshots.withLock { snapshots in
      snapshots[ObjectIdentifier(root), default: Snapshot(root: root, value: value)].value = value
    }
    return result
  }
}
