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
    /// Remove every flag, even from a row that cannot be read.
    case reset
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
      reset                  Remove every flag. A row that cannot be read is kept as
                             'feature-flags.corrupt-<time>'.

    Options:
      --database <connection>  A libpq connection string or URI; by default libpq's
                               environment variables (PGHOST, PGPORT, PGDATABASE, …).
      --table <name>           The table holding the flags (default: sharing_values):
                               letters, digits and underscores, as name or schema.name.
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
    guard Self.isTableName(table) else {
      throw UsageError(
        "'\(table)' is not a table name: use letters, digits and underscores, as name or"
          + " schema.name."
      )
    }
    let words = arguments.operands
    switch (words.first, words.count) {
    case (nil, _), ("list", 1):
      command = .list
    case ("watch", 1):
      command = .watch
    case ("reset", 1):
      command = .reset
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
    case ("list", _), ("watch", _), ("reset", _):
      throw UsageError("Too many arguments for '\(words[0])'.")
    case (let word?, _):
      throw UsageError("Unknown command '\(word)'.")
    }
  }

  /// Whether a name is one SharingPostgres takes for a table: one or two identifiers of ASCII
  /// letters, digits and underscores, not starting with a digit, 50 characters at most.
  private static func isTableName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return (1...2).contains(parts.count) && name.count <= 50
      && parts.allSatisfy { part in
        guard let first = part.first, !first.isNumber else { return false }
        return part.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
      }
  }
}
