/// How long to wait before trying a store again: 50 ms, doubling after each failed attempt
/// up to 2 s. Reconnecting to a server and writing a failed value again both wait so.
package struct Backoff: Sendable {
  static let shortest = Duration.milliseconds(50)
  static let longest = Duration.seconds(2)

  private var delay = Self.shortest

  package init() {}

  /// The wait before the next attempt; the one after it is twice as long, up to ``longest``.
  package mutating func next() -> Duration {
    defer { delay = min(delay * 2, Self.longest) }
    return delay
  }

  /// Starts again from ``shortest``: the store answered.
  package mutating func reset() {
    delay = Self.shortest
  }
}
