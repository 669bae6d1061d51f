public import SharingCore

/// The counter tab: counts up and down, and tells whether the count is prime.
public struct CounterTab: Equatable, Sendable {
  /// The message shown after asking whether the count is prime, until it is dismissed.
  public var alert: String?
  /// The statistics, shared with the profile tab.
  @Shared public var stats: Stats

  /// Creates the tab.
  ///
  /// - Parameter stats: The statistics shared by the tabs.
  public init(stats: Shared<Stats>) {
    _stats = stats
  }

  /// What the user can do on the tab.
  public enum Action: Equatable, Sendable {
    /// The alert was dismissed.
    case alertDismissed
    /// The "−" button was tapped.
    case decrementButtonTapped
    /// The "+" button was tapped.
    case incrementButtonTapped
    /// The "Is this prime?" button was tapped.
    case isPrimeButtonTapped
  }

  /// Runs an action.
  ///
  /// - Parameter action: The action.
  public mutating func send(_ action: Action) {
    switch action {
    case .alertDismissed:
      alert = nil
    case .decrementButtonTapped:
      $stats.withLock { $0.decrement() }
    case .incrementButtonTapped:
      $stats.withLock { $0.increment() }
    case .isPrimeButtonTapped:
      let count = stats.count
      alert =
        isPrime(count)
        ? "👍 The number \(count) is prime!"
        : "👎 The number \(count) is not prime :("
    }
  }
}

/// Whether a number is prime.
func isPrime(_ number: Int) -> Bool {
  guard number > 1 else { return false }
  var divisor = 2
  while divisor * divisor <= number {
    if number % divisor == 0 { return false }
    divisor += 1
  }
  return true
}
