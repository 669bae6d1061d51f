/// The command line of `flags`: what to do, and which database holds the flags.
///
/// ```swift
/// let arguments = try FlagsArguments(parsing: ["set", "beta", "on"])
/// arguments.command  // .set("beta", isOn: true)
/// ```
public struct FlagsArguments: Equatable, Sendable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Turn a flag on or off.
    case set(String, isOn: Bool)
    /// Print every flag.
    case list
    /// Print every flag, then each change as it is committed, until interrupted.
    case watch
    /// Print the usage.
    case help
  }

  /// What to do; ``Command/list`` when no command is given.
  public var command = Command.list
  /// The libpq connection string given with `--database`, if any.
  public var connectionString = ""
  /// The table given with `--table`, if any.
  public var table = "sharing_values"

  /// The usage, printed by `--help` and after a usage error.
  public static let usage = """
    Usage: flags [--database <connection>] [--table <name>] [<command>]

    Feature flags in PostgreSQL, shared live by every process on every machine.

    Commands:
      list                   Print every flag (the default).
      set <name> on|off      Turn a flag on or off.
      watch                  Print every flag, then each change as it is made, anywhere,
                             until interrupted.

    Options:
      --database <connection>  A libpq connection string or URI; by default libpq's
                               environment variables (PGHOST, PGPORT, PGDATABASE, …).
      --table <name>           The table holding the flags (default: sharing_values).
      -h, --help               Show this help.
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
      case "--database", "--table":
        guard let value = arguments.next() else {
          throw UsageError("'\(argument)' needs a value.")
        }
        if argument == "--database" { connectionString = value } else { table = value }
      case _ where argument.hasPrefix("-"):
        throw UsageError("Unknown option '\(argument)'.")
      default:
        words.append(argument)
      }
    }
    command = try Self.command(from: words)
  }

  private static func command(from words: [String]) throws(UsageError) -> Command {
    switch (words.first, words.count) {
    case (nil, _), ("list", 1):
      return .list
    case ("watch", 1):
      return .watch
    case ("set", 3):
      guard let isOn = ["on": true, "off": false][words[2]] else {
        throw UsageError("'\(words[2])' is neither 'on' nor 'off'.")
      }
      guard words[1].allSatisfy({ !$0.isWhitespace }) else {
        throw UsageError("A flag's name has no spaces: '\(words[1])'.")
      }
      return .set(words[1], isOn: isOn)
    case ("set", _):
      throw UsageError("'set' needs a name and 'on' or 'off'.")
    case ("list", _), ("watch", _):
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
