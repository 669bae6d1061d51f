package import Dispatch

extension Duration {
  /// The duration as a Dispatch interval, in whole nanoseconds where they fit.
  ///
  /// Never traps: a negative duration is no wait at all, and one longer than Dispatch can
  /// count (`Int64.max` nanoseconds, about 292 years) is `.never`, a wait that never ends.
  package var dispatchInterval: DispatchTimeInterval {
    let nanoseconds = attoseconds / 1_000_000_000
    guard nanoseconds > 0 else { return .nanoseconds(0) }
    guard nanoseconds < Int128(Int64.max) else { return .never }
    if let count = Int(exactly: nanoseconds) { return .nanoseconds(count) }
    // Where 'Int' has 32 bits, a longer wait is counted in a coarser unit.
    if let count = Int(exactly: nanoseconds / 1_000_000) { return .milliseconds(count) }
    return Int(exactly: nanoseconds / 1_000_000_000).map { .seconds($0) } ?? .never
  }
}
