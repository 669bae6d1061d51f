import Dispatch

/// The clock and timer behind deferred file writes, injectable so throttling is
/// deterministic in tests.
package protocol WriteScheduler: Sendable {
  /// The current time, measured from an arbitrary fixed origin.
  func now() -> Duration

  /// Runs `action` once `delay` has passed.
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
}

/// Runs deferred writes on a private serial queue, using the continuous clock.
///
/// The queue is never the main queue, so writes happen in programs that never drain it.
struct DispatchWriteScheduler: WriteScheduler {
  static let shared = DispatchWriteScheduler()

  private let queue = DispatchQueue(label: "Sharing.FileStorage.writes")
  private let origin = ContinuousClock.now

  func now() -> Duration {
    ContinuousClock.now - origin
  }

  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    guard delay > .zero else { return queue.async(execute: action) }
    let (seconds, attoseconds) = delay.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: action)
  }
}

/// Runs deferred work at once, on the calling thread: every change is written through.
struct ImmediateWriteScheduler: WriteScheduler {
  func now() -> Duration { .zero }

  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    action()
  }
}
