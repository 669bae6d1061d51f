/// A continuation that a ``SharedReaderKey`` resumes when a load completes.
///
/// > Important: Resume it exactly once. Resuming it again reports an issue and is ignored;
/// > dropping it without resuming reports an issue and fails the load (the current value is
/// > kept and ``SharedReader/loadError`` explains), so that nothing waiting on it hangs.
public struct LoadContinuation<Value>: Sendable {
  private let resumption: Resumption<Result<Value?, any Error>>

  package init(
    _ description: @autoclosure @escaping @Sendable () -> String,
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    self.resumption = Resumption(
      name: "LoadContinuation",
      description: description,
      fallback: .failure(UnresumedContinuationError(key: description())),
      callback: callback
    )
  }

  /// Resumes with a loaded value.
  ///
  /// - Parameter value: The value loaded from the store.
  public func resume(returning value: Value) {
    resume(with: .success(value))
  }

  /// Resumes with an error, exposed as ``SharedReader/loadError``.
  ///
  /// - Parameter error: Why the value could not be loaded.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  /// Resumes without a value: the store has none, so the default value is used.
  public func resumeReturningInitialValue() {
    resume(with: .success(nil))
  }

  /// Resumes with a result: a value, `nil` for the default value, or an error.
  ///
  /// - Parameter result: The result of the load.
  public func resume(with result: Result<Value?, any Error>) {
    resumption.resume(with: result)
  }
}
