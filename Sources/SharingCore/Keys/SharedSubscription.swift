import SharingDependencies

/// A subscription to an external store, returned by
/// ``SharedReaderKey/subscribe(context:subscriber:)``.
///
/// It is cancelled when the last shared value using the key goes away, or when
/// ``cancel()`` is called; the cancellation closure runs at most once.
public struct SharedSubscription: Sendable {
  /// The cancellation closure, until it runs.
  private let onCancel: Locked<(@Sendable () -> Void)?>

  /// Creates a subscription that runs the given closure when cancelled.
  ///
  /// - Parameter cancel: A closure that stops delivering changes.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.onCancel = Locked(cancel)
  }

  /// Cancels the subscription. Calling it more than once has no further effect.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }
}
