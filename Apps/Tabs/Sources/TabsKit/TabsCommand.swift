/// A command typed at the `tabs` prompt.
public enum TabsCommand: Equatable, Sendable {
  /// `tab counter`, `tab profile` (or just `counter`, `profile`): select a tab.
  case select(Tab)
  /// `+`: count up, on the counter tab.
  case increment
  /// `-`: count down, on the counter tab.
  case decrement
  /// `prime`: tell whether the count is prime, on the counter tab.
  case isPrime
  /// `reset`: reset the statistics, on the profile tab.
  case reset
  /// `show`: show the selected tab again.
  case show
  /// `help`: list the commands.
  case help
  /// `quit`: leave.
  case quit

  /// The commands, as `help` lists them.
  public static let list = """
    Commands:
      tab counter, tab profile   Select a tab (selecting one counts up, too).
      +, -                       Count up or down (counter tab).
      prime                      Is the count prime? (counter tab)
      reset                      Reset the statistics (profile tab).
      show                       Show the selected tab again.
      help                       Show these commands.
      quit                       Leave (or end the input).
    """

  /// Parses a line typed at the prompt.
  ///
  /// - Parameter line: The line, without its line ending.
  /// - Throws: ``UnknownCommand`` if the line is no command.
  public init(parsing line: String) throws(UnknownCommand) {
    let words = line.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
    switch words {
    case ["tab", "counter"], ["counter"]: self = .select(.counter)
    case ["tab", "profile"], ["profile"]: self = .select(.profile)
    case ["+"], ["increment"]: self = .increment
    case ["-"], ["decrement"]: self = .decrement
    case ["prime"]: self = .isPrime
    case ["reset"]: self = .reset
    case ["show"]: self = .show
    case ["help"], ["?"]: self = .help
    case ["quit"], ["exit"], ["q"]: self = .quit
    default: throw UnknownCommand(line: line)
    }
  }

  /// The action this command sends when the given tab is selected.
  ///
  /// - Parameter tab: The selected tab.
  /// - Returns: The action, or `nil` for a command that sends none (`show`, `help`, `quit`).
  /// - Throws: ``CommandNotOnTab`` if the command belongs to the other tab.
  public func action(on tab: Tab) throws(CommandNotOnTab) -> TabsFeature.Action? {
    switch (self, tab) {
    case (.select(let tab), _): return .selectTab(tab)
    case (.increment, .counter): return .counter(.incrementButtonTapped)
    case (.decrement, .counter): return .counter(.decrementButtonTapped)
    case (.isPrime, .counter): return .counter(.isPrimeButtonTapped)
    case (.reset, .profile): return .profile(.resetStatsButtonTapped)
    case (.increment, _), (.decrement, _), (.isPrime, _): throw CommandNotOnTab(tab: .counter)
    case (.reset, _): throw CommandNotOnTab(tab: .profile)
    case (.show, _), (.help, _), (.quit, _): return nil
    }
  }
}

/// A line that is no command.
public struct UnknownCommand: Error, Equatable, CustomStringConvertible {
  /// The line typed.
  public let line: String

  /// A description of the error for the user.
  public var description: String {
    "Unknown command '\(line)'. Type 'help' for the commands."
  }
}

/// A command typed on the wrong tab.
public struct CommandNotOnTab: Error, Equatable, CustomStringConvertible {
  /// The tab the command belongs to.
  public let tab: Tab

  /// A description of the error for the user.
  public var description: String {
    "That command is on the \(tab.rawValue) tab: type 'tab \(tab.rawValue)' first."
  }
}
