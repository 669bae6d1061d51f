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
}
