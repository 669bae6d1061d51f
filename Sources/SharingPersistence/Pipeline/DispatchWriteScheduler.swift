import Dispatch

/// Runs deferred work on a private serial queue, using the continuous clock.
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
    let interval = delay.dispatchInterval
    // NB: A wait longer than Dispatch can count never ends within the process: what the
    //     action would write stays pending for a flush, or for exit.
    guard interval != .never else { return }
    queue.asyncAfter(deadline: .now() + interval, execute: action)
  }
}
