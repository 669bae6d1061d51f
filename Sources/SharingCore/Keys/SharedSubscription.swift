import Synchronization

/// A subscription to an external store, returned by
/// ``SharedReaderKey/subscribe(context:subscriber:)``.
///
/// It is cancelled when the last shared value using the key goes away, or when
/// ``cancel()`` is called; the cancellation closure runs at most once.
public struct SharedSubscription: Sendable {
  private let box: CancellationBox

  /// Creates a subscription that runs the given closure when cancelled.
  ///
  /// - Parameter cancel: A closure that stops delivering changes.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.box = CancellationBox(cancel)
  }

  /// Cancels the subscription. Calling it more than once has no further effect.
  public func cancel() {
    box.cancel()
  }
}

private final class CancellationBox: Sendable {
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(onCancel)
  }

  func cancel() {
    let onCancel = self.onCancel.withLock { onCancel in
      defer { onCancel = nil }
      return onCancel
    }
    onCancel?()
  }
}
