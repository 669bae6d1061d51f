import Dispatch
import SharingPersistence

/// Runs throttled writes on a private queue after real time: the one scheduler of live
/// databases.
struct DispatchScheduler: WriteScheduler {
  static let shared = DispatchScheduler()

  private let queue = DispatchQueue(label: "SharingPostgres.writes", attributes: .concurrent)
  private let origin = ContinuousClock.now

  func now() -> Duration {
    ContinuousClock.now - origin
  }

  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    let nanoseconds = Int(min(max(delay, .zero), .seconds(86_400)) / .nanoseconds(1))
    queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: action)
  }
}
