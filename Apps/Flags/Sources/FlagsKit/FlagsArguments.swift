public import CommandLineSupport

/// The command line of `flags`: what to do, and which database holds the flags.
///
/// ```swift
/// let arguments = try FlagsArguments.parse(["set", "beta", "on"])
/// arguments?.command  // .set("beta", isOn: true)
/// ```
public struct FlagsArguments: CommandArguments, Equatable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Turn a flag on or off.
    case set(String, isOn: Bool)
    /// Print every flag.
    case list
    /// Print every flag, then each change as it is committed, until interrupted.
    case watch
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

  /// `--database` takes a connection string, `--table` a name.
  public static let options = ["--database": "a connection string", "--table": "a table name"]

  /// Reads what to do from the sorted command line.
  ///
  /// - Parameter arguments: The command line.
  /// - Throws: A ``UsageError`` describing the first word that does not fit.
  public init(_ arguments: ArgumentList) throws(UsageError) {
    connectionString = arguments.value(of: "--database") ?? ""
    table = arguments.value(of: "--table") ?? "sharing_values"
    let words = arguments.operands
    switch (words.first, words.count) {
    case (nil, _), ("list", 1):
      command = .list
    case ("watch", 1):
      command = .watch
    case ("set", 3):
      guard let isOn = ["on": true, "off": false][words[2]] else {
        throw UsageError("'\(words[2])' is neither 'on' nor 'off'.")
      }
      guard !words[1].isEmpty, words[1].allSatisfy({ !$0.isWhitespace }) else {
        throw UsageError("A flag's name is a word without spaces, not '\(words[1])'.")
      }
      command = .set(words[1], isOn: isOn)
    case ("set", _):
      throw UsageError("'set' needs a name and 'on' or 'off'.")
    case ("list", _), ("watch", _):
      throw UsageError("Too many arguments for '\(words[0])'.")
    case (let word?, _):
      throw UsageError("Unknown command '\(word)'.")
    }
  }
}
