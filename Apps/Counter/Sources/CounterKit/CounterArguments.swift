/// The command line of `counter`: what to do, and where the values are kept.
///
/// ```swift
/// let arguments = try CounterArguments(parsing: ["increment", "5"])
/// arguments.command  // .increment(by: 5)
/// ```
public struct CounterArguments: Equatable, Sendable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Show the count and the launch count.
    case show
    /// Add to the count.
    case increment(by: Int)
    /// Set the count back to zero.
    case reset
    /// Print the usage.
    case help
  }

  /// What to do; ``Command/show`` when no command is given.
  public var command = Command.show
  /// The file given with `--store`, if any.
  public var storePath: String?

  /// The usage, printed by `--help` and after a usage error.
  public static let usage = """
    Usage: counter [--store <path>] [<command>]

    A counter that survives between runs, and how many times it was launched.

    Commands:
      (none)            Show the count and the launch count.
      increment [<n>]   Add n (a positive integer, 1 by default) to the count.
      reset             Set the count back to zero.

    Options:
      --store <path>    Keep the values in the property list <path> instead of the
                        user defaults of 'counter'.
      -h, --help        Show this help.

    Every run counts as a launch.
    """

  /// Parses the arguments that follow the program name.
  ///
  /// - Parameter arguments: The command-line arguments, without the program name.
  /// - Throws: A ``UsageError`` describing the first argument that does not fit.
  public init(parsing arguments: some Sequence<String>) throws(UsageError) {
    var words: [String] = []
    var arguments = arguments.makeIterator()
    while let argument = arguments.next() {
      switch argument {
      case "-h", "--help":
        command = .help
        return
      case "--store":
        guard let path = arguments.next() else { throw UsageError("'--store' needs a path.") }
        storePath = path
      case _ where argument.hasPrefix("--store="):
        storePath = String(argument.dropFirst("--store=".count))
      case _ where argument.hasPrefix("-") && argument != "-":
        throw UsageError("Unknown option '\(argument)'.")
      default:
        words.append(argument)
      }
    }
    command = try Self.command(from: words)
  }

  private static func command(from words: [String]) throws(UsageError) -> Command {
    switch (words.first, words.count) {
    case (nil, _):
      return .show
    case ("increment", 1):
      return .increment(by: 1)
    case ("increment", 2):
      guard let amount = Int(words[1]), amount > 0 else {
        throw UsageError("'\(words[1])' is not a positive integer.")
      }
      return .increment(by: amount)
    case ("reset", 1):
      return .reset
    case ("increment", _), ("reset", _):
      throw UsageError("Too many arguments for '\(words[0])'.")
    case (let word?, _):
      throw UsageError("Unknown command '\(word)'.")
    }
  }
}

/// A command line that does not fit the usage.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, for the user.
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
