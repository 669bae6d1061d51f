/// Which of this process's writes notify the table's channel right away, and which wait to
/// notify together.
///
/// Every listening connection in the database wakes for every transaction that notifies,
/// whatever the channel: a process writing many keys at once would wake them all for each
/// write. So a write notifies in its own round trip if no notification was sent for
/// ``interval``; otherwise it waits, and the writes of the interval notify in one transaction
/// once it has passed. A burst of writes notifies twice; a process writing more than about a
/// hundred times a second delays the playback of some of its writes by up to the interval.
struct HintBatch: Sendable {
  static let interval = Duration.milliseconds(10)

  private var lastSent: ContinuousClock.Instant?
  private var pending: [String: Int64] = [:]
  private var isScheduled = false

  /// Whether a write about to be made notifies in its own round trip: recorded as sent if so.
  mutating func claimAtOnce(now: ContinuousClock.Instant) -> Bool {
    guard !isScheduled, lastSent.map({ now - $0 >= Self.interval }) ?? true else { return false }
    lastSent = now
    return true
  }

  /// Adds a write that did not notify. Returns the delay after which ``take(now:)`` must be
  /// called, if a call is not scheduled yet.
  mutating func add(_ key: String, version: Int64, now: ContinuousClock.Instant) -> Duration? {
    pending[key] = max(pending[key] ?? 0, version)
    guard !isScheduled else { return nil }
    isScheduled = true
    return max(.zero, (lastSent ?? now) + Self.interval - now)
  }

  /// The writes to notify now, each key with its latest version.
  mutating func take(now: ContinuousClock.Instant) -> [String: Int64] {
    defer { pending = [:] }
    isScheduled = false
    lastSent = now
    return pending
  }
}
