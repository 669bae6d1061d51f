/// A continuation that a ``SharedReaderKey`` resumes when a load completes.
///
/// > Important: Resume it exactly once. Resuming it again reports an issue and is ignored;
/// > dropping it without resuming reports an issue and ends the load as if the store had no
/// > value (the current value is kept), so that nothing waiting on it hangs.
public struct LoadContinuation<Value>: Sendable {
  private let resumption: Resumption<Result<Value?, any Error>>
  private let writeBack: (@Sendable (Result<Void, any Error>) -> Void)?

  /// Creates a continuation that calls `callback` with the result of a load, for example to
  /// unit-test a key:
  ///
  /// ```swift
  /// key.load(
  ///   context: .userInitiated,
  ///   continuation: LoadContinuation("load") { result in loaded.withLock { $0 = result } }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - description: What is loaded, usually the key's description, named in quotes in
  ///     reports of a misused continuation; without one, reports name "A shared key".
  ///   - callback: Called once with the result: a value, `nil` for the initial value, or an
  ///     error.
  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    self.init(description(), writeBack: nil, callback: callback)
  }

  /// A continuation that is also told how writing back what the load read went.
  package init(
    _ description: @autoclosure @escaping @Sendable () -> String,
    writeBack: (@Sendable (Result<Void, any Error>) -> Void)?,
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    self.resumption = Resumption(
      name: "LoadContinuation",
      description: { continuationSubject(description()) },
      fallback: .success(nil),
      callback: callback
    )
    self.writeBack = writeBack
  }

  /// Tells the loading value how writing back what the load read went, as a save would: a
  /// key that migrates a stored value writes it back, and a failure is a save error.
  package func writeBackFinished(_ result: Result<Void, any Error>) {
    writeBack?(result)
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

/// How a report of a misused continuation names its key, as swift-sharing does: its
/// description in quotes (`'.inMemory("count")'`), or "A shared key" when it has none.
func continuationSubject(_ description: String) -> String {
  description.isEmpty ? "A shared key" : "'\(description)'"
}
