/// Which of this process's writes notify other processes right away, and which wait to
/// notify together.
///
/// Every listening connection in the database wakes for every transaction that notifies,
/// whatever its channel: a process writing many keys that others watch would wake them all
/// for each write. So a write notifies in its own round trip if no notification was sent for
/// ``interval``; otherwise it only learns whether other processes watch its key, and if they
/// do, the writes of the interval notify in one transaction once it has passed. A process
/// writing keys others watch more than about a hundred times a second thus delays the
/// playback of some of its writes by up to the interval.
struct HintBatch: Sendable {
  static let interval = Duration.milliseconds(10)

  private var lastSent: ContinuousClock.Instant?
  private var isClaimed = false
  private var pending: Set<String> = []
  private var isScheduled = false

  /// Whether a write about to be made may notify in its own round trip; if so, no other may
  /// until ``claimEnded(notified:now:)``.
  mutating func claimAtOnce(now: ContinuousClock.Instant) -> Bool {
    guard !isClaimed, !isScheduled, lastSent.map({ now - $0 >= Self.interval }) ?? true else {
      return false
    }
    isClaimed = true
    return true
  }

  /// The write that claimed to notify at once ended: it notified some process, or none (no
  /// other process watches its key, or it failed).
  mutating func claimEnded(notified: Bool, now: ContinuousClock.Instant) {
    isClaimed = false
    if notified { lastSent = now }
  }

  /// Adds the key of a write that did not notify although other processes watch it. Returns
  /// the delay after which ``take(now:)`` must be called, if a call is not scheduled yet.
  mutating func add(_ key: String, now: ContinuousClock.Instant) -> Duration? {
    pending.insert(key)
    guard !isScheduled else { return nil }
    isScheduled = true
    return max(.zero, (lastSent ?? now) + Self.interval - now)
  }

  /// The keys to notify now.
  mutating func take(now: ContinuousClock.Instant) -> Set<String> {
    defer { pending = [] }
    isScheduled = false
    lastSent = now
    return pending
  }
}
