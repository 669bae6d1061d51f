import Dispatch

/// Runs deferred writes on a private queue, using the continuous clock: the one scheduler of
/// every store on real files, user defaults and servers.
///
/// The queue is never the main queue, so writes happen in programs that never drain it, and
/// it is concurrent: a write waiting on a server does not hold up another record's. Each
/// record makes one write at a time itself.
package struct DispatchWriteScheduler: WriteScheduler {
  package static let shared = DispatchWriteScheduler()

  private let queue = DispatchQueue(label: "Sharing.writes", attributes: .concurrent)
  private let origin = ContinuousClock.now

  package func now() -> Duration {
    ContinuousClock.now - origin
  }

  package func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    guard delay > .zero else { return queue.async(execute: action) }
    let interval = delay.dispatchInterval
    // A wait longer than Dispatch can count never ends within the process: what the
    // action would write stays pending for a flush, or for exit.
    guard interval != .never else { return }
    queue.asyncAfter(deadline: .now() + interval, execute: action)
  }
}
