/// Feeds changes from an external store into a shared value; handed to
/// ``SharedReaderKey/subscribe(context:subscriber:)``.
///
/// A subscriber may be used from any thread, any number of times, until its subscription is
/// cancelled; after that its yields are ignored.
public struct SharedSubscriber<Value>: Sendable {
  /// Called with each result, and the subscribed value's ``programWriteCount`` when the store
  /// decided to deliver it, if the key tells it.
  private let callback: @Sendable (Result<Value?, any Error>, _ decidedAt: UInt64?) -> Void
  private let onLoading: @Sendable (Bool) -> Void
  private let writeBack: (@Sendable (Result<Void, any Error>) -> Void)?
  private let programWrites: (@Sendable () -> UInt64)?

  /// Creates a subscriber that calls `callback` with each result a key yields, for example
  /// to unit-test a key's subscription:
  ///
  /// ```swift
  /// let subscription = key.subscribe(
  ///   context: .userInitiated,
  ///   subscriber: SharedSubscriber { result in yielded.withLock { $0.append(result) } }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - callback: Called with each result: a value, `nil` for the initial value, or an
  ///     error.
  ///   - onLoading: Called with each ``yieldLoading(_:)``.
  public init(
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void,
    onLoading: @escaping @Sendable (Bool) -> Void = { _ in }
  ) {
    self.callback = { result, _ in callback(result) }
    self.onLoading = onLoading
    self.writeBack = nil
    self.programWrites = nil
  }

  /// A subscriber that is also told how the writes a key makes on its own went, and when
  /// the store decided what it delivers, counted in the program's writes to the value.
  package init(
    callback: @escaping @Sendable (Result<Value?, any Error>, _ decidedAt: UInt64?) -> Void,
    onLoading: @escaping @Sendable (Bool) -> Void,
    writeBack: (@Sendable (Result<Void, any Error>) -> Void)?,
    programWrites: @escaping @Sendable () -> UInt64
  ) {
    self.callback = callback
    self.onLoading = onLoading
    self.writeBack = writeBack
    self.programWrites = programWrites
  }

  /// How many writes the program has made to the subscribed value; `nil` if the subscriber
  /// does not tell.
  ///
  /// A store reads it as it decides to deliver a value, with nothing else able to change
  /// what it decides, and hands it back to ``yield(with:decidedAt:)``.
  package var programWriteCount: UInt64? {
    programWrites?()
  }

  /// Tells the subscribed value how a write the key made on its own went, as a save would: a
  /// key that writes a failed save again once its store is back reports the outcome here,
  /// and a success clears the save error.
  package func writeBackFinished(_ result: Result<Void, any Error>) {
    writeBack?(result)
  }

  /// Plays back a new value from the store.
  ///
  /// - Parameter value: The value now in the store.
  public func yield(_ value: Value) {
    yield(with: .success(value))
  }

  /// Reports an error from the store, exposed as ``SharedReader/loadError``.
  ///
  /// - Parameter error: What went wrong.
  public func yield(throwing error: any Error) {
    yield(with: .failure(error))
  }

  /// Reports that the store no longer has a value, so the default value is used again.
  public func yieldReturningInitialValue() {
    yield(with: .success(nil))
  }

  /// Reports whether the store is loading a new value, exposed as ``SharedReader/isLoading``.
  ///
  /// - Parameter isLoading: Whether a load is in progress.
  public func yieldLoading(_ isLoading: Bool = true) {
    onLoading(isLoading)
  }

  /// Plays back a result: a value, `nil` for the default value, or an error.
  ///
  /// - Parameter result: The result to play back.
  public func yield(with result: Result<Value?, any Error>) {
    callback(result, nil)
  }

  /// Plays back a result the store decided to deliver when the program had made `decidedAt`
  /// writes to the value (its ``programWriteCount`` then): a write the program made since is
  /// newer, and the value keeps it.
  package func yield(with result: Result<Value?, any Error>, decidedAt: UInt64?) {
    callback(result, decidedAt)
  }
}
