/// A type that can load, subscribe to and save a value in an external store.
///
/// Conform to this protocol to make a store writable through ``Shared``. Every change made
/// with ``Shared/withLock(_:)`` is handed to
/// ``save(_:context:continuation:)``, in order, with the latest value saved last.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves a value to the store.
  ///
  /// > Important: Resume the continuation exactly once, when the value is saved or failed to
  /// > save. The error, if any, is exposed as ``Shared/saveError``.
  ///
  /// - Parameters:
  ///   - value: The value to save.
  ///   - context: Why the value is saved: it changed (``SaveContext/didSet``, which may be
  ///     throttled) or ``Shared/save()`` was called (``SaveContext/userInitiated``, which
  ///     should write at once).
  ///   - continuation: The continuation to resume when the save completes.
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)

  /// Saves the value that `value` returns when the store writes it.
  ///
  /// A store that writes later than it is asked to (a throttled file) should implement this
  /// and call `value` only when it writes: a copy of the value kept while a write waits
  /// shares the value's storage with the shared value, so the next change would copy all of
  /// it. ``Shared/withLock(_:)`` calls this method; by default it calls
  /// ``save(_:context:continuation:)`` with `value()` at once.
  ///
  /// > Important: Resume the continuation exactly once, as for ``save(_:context:continuation:)``.
  ///
  /// - Parameters:
  ///   - value: Returns the latest value; call it when writing, once per write.
  ///   - context: Why the value is saved, as for ``save(_:context:continuation:)``.
  ///   - continuation: The continuation to resume when the save completes.
  func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  )

  /// The key whose store runs each change as a transaction, if this key's changes are
  /// transactions: the key itself for a ``CoordinatedSharedKey``, the wrapped key for a key
  /// that forwards to one, `nil` for every other key.
  var _coordinatedKey: (any CoordinatedSharedKey<Value>)? { get }
}

extension SharedKey {
  /// Saves `value()` at once, through ``save(_:context:continuation:)``.
  public func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    save(value(), context: context, continuation: continuation)
  }

  /// `nil`: changes are made in memory, then saved.
  public var _coordinatedKey: (any CoordinatedSharedKey<Value>)? { nil }
}
