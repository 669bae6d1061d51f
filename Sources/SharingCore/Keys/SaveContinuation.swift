/// A continuation that a ``SharedKey`` resumes when a save completes.
///
/// > Important: Resume it exactly once. Resuming it again reports an issue and is ignored;
/// > dropping it without resuming reports an issue and ends the save as if it succeeded, so
/// > that nothing waiting on it hangs.
public struct SaveContinuation: Sendable {
  private let resumption: Resumption<Result<Void, any Error>>

  /// Creates a continuation that calls `callback` with the result of a save, for example to
  /// unit-test a key:
  ///
  /// ```swift
  /// key.save(3, context: .userInitiated, continuation: SaveContinuation("save") { result in
  ///   saved.withLock { $0 = result }
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - description: What is saved, usually the key's description, named in quotes in
  ///     reports of a misused continuation; without one, reports name "A shared key".
  ///   - callback: Called once with the result.
  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) {
    self.resumption = Resumption(
      name: "SaveContinuation",
      description: { continuationSubject(description()) },
      fallback: .success(()),
      callback: callback
    )
  }

  /// Resumes after the value was saved.
  public func resume() {
    resume(with: .success(()))
  }

  /// Resumes with an error, exposed as ``Shared/saveError``.
  ///
  /// - Parameter error: Why the value could not be saved.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  /// Resumes with a result.
  ///
  /// - Parameter result: The result of the save.
  public func resume(with result: Result<Void, any Error>) {
    resumption.resume(with: result)
  }
}
