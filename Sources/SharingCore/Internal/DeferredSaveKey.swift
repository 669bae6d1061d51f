/// A key whose writes may wait (a throttled file): it is handed a way to read the value when
/// it writes, rather than a copy of the value at every change.
///
/// A copy kept by a waiting write would share the value's storage with the shared reference
/// until it is written, so the next change would copy the whole value: every change would
/// cost what the value weighs. Reading when writing leaves the reference's storage unshared
/// between writes, and writes the latest value.
package protocol DeferredSaveKey<Value>: SharedKey {
  /// Saves the value `value` returns when the key writes it.
  ///
  /// - Parameters:
  ///   - value: Returns the value to write; call it when writing, once per write.
  ///   - context: Why the value is saved, as in ``SharedKey/save(_:context:continuation:)``.
  ///   - continuation: The continuation to resume when the save completes.
  func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  )
}
