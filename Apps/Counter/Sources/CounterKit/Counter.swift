public import SharingCore
import SharingPersistence

/// A counter, and the number of times the program was launched, both kept in user defaults.
///
/// ```swift
/// let counter = Counter()
/// counter.recordLaunch()
/// try counter.increment(by: 2)
/// print(counter.count, counter.launchCount)
/// ```
///
/// Every `Counter` reads and writes the same two values: the keys ``SharedReaderKey/count``
/// and ``SharedReaderKey/launchCount`` of the default user defaults.
public struct Counter: Sendable {
  /// The counter's value.
  @Shared(.count) public var count
  /// How many times the program was launched.
  @Shared(.launchCount) public var launchCount

  /// Reads the counter from the default user defaults.
  public init() {}

  /// Counts one more launch of the program.
  public func recordLaunch() {
    $launchCount.withLock { $0 += 1 }
  }

  /// Adds to the counter.
  ///
  /// - Parameter amount: The amount to add.
  /// - Throws: ``CounterError/overflow`` if the sum does not fit an `Int`; the counter is
  ///   left as it was.
  public func increment(by amount: Int) throws(CounterError) {
    try $count.withLock { (count: inout Int) throws(CounterError) in
      let (sum, overflow) = count.addingReportingOverflow(amount)
      guard !overflow else { throw .overflow }
      count = sum
    }
  }

  /// Sets the counter back to zero. The launch count is kept.
  public func reset() {
    $count.withLock { $0 = 0 }
  }

  /// Why the stored values could not be read, if they could not; the defaults are used.
  public var loadError: (any Error)? {
    $count.loadError ?? $launchCount.loadError
  }

  /// Writes the counter and the launch count to disk now.
  ///
  /// - Throws: Why they could not be written.
  public func save() async throws {
    try await $launchCount.save()
    try await $count.save()
  }
}

/// Why the counter could not change.
public enum CounterError: Error, Equatable, CustomStringConvertible {
  /// The counter would go beyond the largest integer.
  case overflow

  /// A description of the error for the user.
  public var description: String {
    switch self {
    case .overflow: "The count would exceed \(Int.max); it was left unchanged."
    }
  }
}
