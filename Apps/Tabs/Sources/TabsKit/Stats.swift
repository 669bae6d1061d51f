/// Statistics about the counter, shared by both tabs.
public struct Stats: Equatable, Sendable {
  /// The current count.
  public private(set) var count = 0
  /// The highest count reached.
  public private(set) var maxCount = 0
  /// The lowest count reached.
  public private(set) var minCount = 0
  /// How many times the count changed.
  public private(set) var numberOfCounts = 0

  /// Creates statistics.
  ///
  /// - Parameters:
  ///   - count: The current count.
  ///   - maxCount: The highest count reached.
  ///   - minCount: The lowest count reached.
  ///   - numberOfCounts: How many times the count changed.
  public init(count: Int = 0, maxCount: Int = 0, minCount: Int = 0, numberOfCounts: Int = 0) {
    self.count = count
    self.maxCount = maxCount
    self.minCount = minCount
    self.numberOfCounts = numberOfCounts
  }

  /// Counts up by one.
  public mutating func increment() {
    count += 1
    numberOfCounts += 1
    maxCount = max(maxCount, count)
  }

  /// Counts down by one.
  public mutating func decrement() {
    count -= 1
    numberOfCounts += 1
    minCount = min(minCount, count)
  }

  /// Starts over from zero.
  public mutating func reset() {
    self = Stats()
  }
}
