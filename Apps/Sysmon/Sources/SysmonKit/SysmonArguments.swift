public import Foundation

/// The command line of `sysmon`.
///
/// ```swift
/// let arguments = try SysmonArguments(parsing: ["--seconds", "5"])
/// arguments.command  // .watch(for: .seconds(5))
/// ```
public struct SysmonArguments: Equatable, Sendable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Print the readings whenever they change, for a while or until interrupted.
    case watch(for: Duration?)
    /// Print the readings once.
    case once
    /// Print the usage.
    case help
  }

  /// What to do; ``Command/watch(for:)`` until interrupted when no command is given.
  public var command = Command.watch(for: nil)
  /// Where the readings come from.
  public var directory = URL.proc
  /// How often the readings are made.
  public var interval = Duration.seconds(1)

  /// The usage, printed by `--help` and after a usage error.
  public static let usage = """
    Usage: sysmon [once] [--seconds <n>] [--interval <seconds>] [--source <directory>]

    Shows the load average, the uptime and the memory usage of the system, read from
    /proc by a custom '@SharedReader' key.

    Commands:
      (none)                Print the readings whenever they change, until Ctrl-C.
      once                  Print the readings once.

    Options:
      --seconds <n>         Stop watching after n seconds.
      --interval <seconds>  How often to read, such as 0.5 (default: 1).
      --source <directory>  Read loadavg, uptime and meminfo from <directory>
                            instead of /proc.
      -h, --help            Show this help.
    """

  /// Parses the arguments that follow the program name.
  ///
  /// - Parameter arguments: The command-line arguments, without the program name.
  /// - Throws: A ``UsageError`` describing the first argument that does not fit.
  public init(parsing arguments: some Sequence<String>) throws(UsageError) {
    var isOnce = false
    var seconds: Duration?
    var arguments = arguments.makeIterator()
    while let argument = arguments.next() {
      switch argument {
      case "-h", "--help":
        command = .help
        return
      case "once" where !isOnce:
        isOnce = true
      case "--seconds":
        seconds = try Self.duration(arguments.next(), for: argument)
      case "--interval":
        interval = try Self.duration(arguments.next(), for: argument)
      case "--source":
        guard let path = arguments.next() else { throw UsageError("'--source' needs a path.") }
        directory = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
      case _ where argument.hasPrefix("-"):
        throw UsageError("Unknown option '\(argument)'.")
      default:
        throw UsageError("Unexpected argument '\(argument)'.")
      }
    }
    if isOnce, seconds != nil { throw UsageError("'once' takes no '--seconds'.") }
    command = isOnce ? .once : .watch(for: seconds)
  }

  private static func duration(
    _ text: String?,
    for option: String
  ) throws(UsageError) -> Duration {
    guard let text else { throw UsageError("'\(option)' needs a number of seconds.") }
    guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
      throw UsageError("'\(text)' is not a number of seconds between 0 and 86400.")
    }
    return .milliseconds(max(1, Int((seconds * 1000).rounded())))
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
