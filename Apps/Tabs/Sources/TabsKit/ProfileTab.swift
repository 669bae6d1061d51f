public import SharingCore

/// The profile tab: shows the statistics, and resets them.
public struct ProfileTab: Equatable, Sendable {
  /// The statistics, shared with the counter tab.
  @Shared public var stats: Stats

  /// Creates the tab.
  ///
  /// - Parameter stats: The statistics shared by the tabs.
  public init(stats: Shared<Stats>) {
    _stats = stats
  }

  /// What the user can do on the tab.
  public enum Action: Equatable, Sendable {
    /// The "Reset" button was tapped.
    case resetStatsButtonTapped
  }

  /// Runs an action.
  ///
  /// - Parameter action: The action.
  public mutating func send(_ action: Action) {
    switch action {
    case .resetStatsButtonTapped:
      $stats.withLock { $0.reset() }
    }
  }
}
