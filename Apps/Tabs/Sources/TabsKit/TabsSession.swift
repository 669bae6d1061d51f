/// The `tabs` prompt: runs each command typed on the tabs, and tells what to show.
///
/// ```swift
/// var session = TabsSession(tabs: TabsFeature(stats: Shared(value: Stats())))
/// let reply = session.handle("+")
/// print(reply.output)  // the counter tab, count 1
/// ```
public struct TabsSession: Sendable {
  /// The tabs.
  public private(set) var tabs: TabsFeature

  /// Creates a session.
  ///
  /// - Parameter tabs: The tabs to run commands on.
  public init(tabs: TabsFeature) {
    self.tabs = tabs
  }

  /// What to show after a command.
  public struct Reply: Equatable, Sendable {
    /// Text for standard output; empty for nothing.
    public var output = ""
    /// A message for standard error, if the command failed.
    public var error: String?
    /// Whether the session ends.
    public var quits = false
  }

  /// Runs a line typed at the prompt.
  ///
  /// An alert is shown once, in the reply, then dismissed.
  ///
  /// - Parameter line: The line, without its line ending.
  /// - Returns: What to show.
  public mutating func handle(_ line: String) -> Reply {
    guard !line.allSatisfy(\.isWhitespace) else { return Reply() }
    do {
      let command = try TabsCommand(parsing: line)
      switch command {
      case .help: return Reply(output: TabsCommand.list)
      case .quit: return Reply(quits: true)
      default: break
      }
      if let action = try command.action(on: tabs.currentTab) { tabs.send(action) }
      let output = TabsScreen.render(tabs)
      if tabs.counter.alert != nil { tabs.send(.counter(.alertDismissed)) }
      return Reply(output: output)
    } catch {
      return Reply(error: "\(error)")
    }
  }
}
