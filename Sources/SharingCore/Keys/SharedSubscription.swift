import Synchronization

/// A subscription to an external store, returned by
/// ``SharedReaderKey/subscribe(context:subscriber:)``.
///
/// It is cancelled when the last shared value using the key goes away, or when
/// ``cancel()`` is called; the cancellation closure runs at most once.
public struct SharedSubscription: Sendable {
  private let cancellation: Cancellation

  /// Creates a subscription that runs the given closure when cancelled.
  ///
  /// - Parameter cancel: A closure that stops delivering changes.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.cancellation = Cancellation(cancel)
  }

  /// Cancels the subscription. Calling it more than once has no further effect.
  public func cancel() {
    cancellation.cancel()
  }
}

private final class Cancellation: Sendable {
  private let onCancel: @Sendable () -> Void
  private let isCancelled = Atomic<Bool>(false)

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = onCancel
  }

  func cancel() {
    guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    onCancel()
  }
}
