/// A continuation that a ``SharedKey`` resumes when a save completes.
///
/// > Important: Resume it exactly once. Resuming it again reports an issue and is ignored;
/// > dropping it without resuming reports an issue and counts as a successful save, so that
/// > nothing waiting on the save hangs.
public struct SaveContinuation: Sendable {
  private let resumption: Resumption<Result<Void, any Error>>

  package init(
    _ description: @autoclosure @escaping @Sendable () -> String,
    callback: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) {
    self.resumption = Resumption(
      name: "SaveContinuation",
      description: description,
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
