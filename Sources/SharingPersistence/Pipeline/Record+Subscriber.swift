package import SharingCore

extension Record {
  /// What a key subscribed to the record is told.
  package struct Subscriber: Sendable {
    /// Told what the store holds after someone else changed it, or why it cannot be read,
    /// with what ``mark`` read when the record decided to tell it.
    package let onChange: @Sendable (Result<StoredSnapshot<Stamp>, any Error>, UInt64?) -> Void
    /// Told how writing a failed value again went, as no save waits for it.
    package let onRetry: @Sendable (Result<Void, any Error>) -> Void
    /// Read with the record's lock held as it decides a delivery, so that no change the
    /// program saves can come between: the subscriber's count of the program's writes
    /// (`SharedSubscriber.programWriteCount`). It only reads.
    let mark: (@Sendable () -> UInt64?)?

    /// A subscriber told what `mark` read when each delivery was decided, if given: a shared
    /// value keeps a write of the program's made since (see
    /// `SharedSubscriber.yield(with:decidedAt:)`).
    package init(
      marking mark: (@Sendable () -> UInt64?)? = nil,
      onChange: @escaping @Sendable (Result<StoredSnapshot<Stamp>, any Error>, UInt64?) -> Void,
      onRetry: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
      self.onChange = onChange
      self.onRetry = onRetry
      self.mark = mark
    }
  }

  /// Plays back others' changes to `subscriber`, each read decoded by `decode`, until the
  /// returned subscription is cancelled, marked with its count of the program's writes (see
  /// ``Subscriber/init(marking:onChange:onRetry:)``); tells it how writing a failed value
  /// again went.
  package func subscribe<Value>(
    _ subscriber: SharedSubscriber<Value>,
    decoding decode: @escaping @Sendable (StoredSnapshot<Stamp>) -> Result<Value?, any Error>
  ) -> SharedSubscription {
    let cancel = subscribe(
      Subscriber(
        marking: { subscriber.programWriteCount },
        onChange: { subscriber.yield(with: $0.flatMap(decode), decidedAt: $1) },
        onRetry: { subscriber.writeBackFinished($0) }
      )
    )
    return SharedSubscription(cancel)
  }
}
