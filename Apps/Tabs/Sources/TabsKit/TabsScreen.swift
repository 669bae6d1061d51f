/// How ``TabsFeature`` looks in a terminal.
///
/// ```
/// [Counter]  Profile
///   Count: 3
///   + - prime
/// ```
public enum TabsScreen {
  /// The tab bar, the selected tab, and its alert if one is shown.
  ///
  /// - Parameter tabs: The tabs.
  /// - Returns: The lines, without a trailing newline.
  public static func render(_ tabs: TabsFeature) -> String {
    let bar = Tab.allCases
      .map { $0 == tabs.currentTab ? "[\($0.title)]" : " \($0.title) " }
      .joined(separator: " ")
    var lines = [String(bar.reversed().drop(while: { $0 == " " }).reversed())]
    switch tabs.currentTab {
    case .counter:
      lines.append("  Count: \(tabs.counter.stats.count)")
      if let alert = tabs.counter.alert { lines.append("  \(alert)") }
      lines.append("  + - prime")
    case .profile:
      let stats = tabs.profile.stats
      lines.append("  Current count: \(stats.count)")
      lines.append("  Max count: \(stats.maxCount)")
      lines.append("  Min count: \(stats.minCount)")
      lines.append("  Total number of counts: \(stats.numberOfCounts)")
      lines.append("  reset")
    }
    return lines.joined(separator: "\n")
  }
}

extension Tab {
  /// The tab's name in the tab bar.
  var title: String {
    switch self {
    case .counter: "Counter"
    case .profile: "Profile"
    }
  }
}
