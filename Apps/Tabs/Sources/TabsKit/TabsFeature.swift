public import SharingCore

/// The two tabs and which one is selected. Both tabs hold the same `@Shared var stats`.
///
/// ```swift
/// var tabs = TabsFeature(stats: Shared(value: Stats()))
/// tabs.send(.counter(.incrementButtonTapped))
/// tabs.profile.stats.count  // 1
/// ```
public struct TabsFeature: Equatable, Sendable {
  /// The selected tab.
  public var currentTab = Tab.counter
  /// The counter tab.
  public var counter: CounterTab
  /// The profile tab.
  public var profile: ProfileTab
  /// The statistics both tabs show.
  @Shared public var stats: Stats

  /// Creates the tabs, the counter tab selected.
  ///
  /// - Parameter stats: The statistics to share between the tabs.
  public init(stats: Shared<Stats>) {
    counter = CounterTab(stats: stats)
    profile = ProfileTab(stats: stats)
    _stats = stats
  }

  /// What the user can do.
  public enum Action: Equatable, Sendable {
    /// An action on the counter tab.
    case counter(CounterTab.Action)
    /// An action on the profile tab.
    case profile(ProfileTab.Action)
    /// A tab was selected; selecting one also counts up.
    case selectTab(Tab)
  }

  /// Runs an action.
  ///
  /// - Parameter action: The action.
  public mutating func send(_ action: Action) {
    switch action {
    case .counter(let action):
      counter.send(action)
    case .profile(let action):
      profile.send(action)
    case .selectTab(let tab):
      currentTab = tab
      $stats.withLock { $0.increment() }
    }
  }
}

/// A tab of ``TabsFeature``.
public enum Tab: String, CaseIterable, Equatable, Sendable {
  /// The counter tab.
  case counter
  /// The profile tab.
  case profile
}
