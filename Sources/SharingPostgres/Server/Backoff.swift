/// How long to wait before trying the server again: 50 ms, doubling after each failed
/// attempt up to 2 s. Reconnecting and writing a failed value again both wait so.
struct Backoff {
  static let shortest = Duration.milliseconds(50)
  static let longest = Duration.seconds(2)

  private var delay = Self.shortest

  /// The wait before the next attempt; the one after it is twice as long, up to ``longest``.
  mutating func next() -> Duration {
    defer { delay = min(delay * 2, Self.longest) }
    return delay
  }

  /// Starts again from ``shortest``: the server answered.
  mutating func reset() {
    delay = Self.shortest
  }
}
