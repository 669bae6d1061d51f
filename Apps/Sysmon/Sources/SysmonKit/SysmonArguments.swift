public import CommandLineSupport
public import Foundation

/// The command line of `sysmon`.
///
/// ```swift
/// let arguments = try SysmonArguments.parse(["--seconds", "5"])
/// arguments?.command  // .watch(for: .seconds(5))
/// ```
public struct SysmonArguments: CommandArguments, Equatable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Print the readings whenever they change, for a while or until interrupted.
    case watch(for: Duration?)
    /// Print the readings once.
    case once
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

  /// The options, which all take a value.
  public static let options = [
    "--seconds": "a number of seconds",
    "--interval": "a number of seconds",
    "--source": "a path",
  ]

  /// Reads what to do from the sorted command line.
  ///
  /// - Parameter arguments: The command line.
  /// - Throws: A ``UsageError`` describing the first word that does not fit.
  public init(_ arguments: ArgumentList) throws(UsageError) {
    let isOnce = arguments.operands.first == "once"
    if let unexpected = arguments.operands.dropFirst(isOnce ? 1 : 0).first {
      throw UsageError("Unexpected argument '\(unexpected)'.")
    }
    let seconds = try arguments.value(of: "--seconds").map { (text) throws(UsageError) in
      try Self.duration(text, for: "--seconds")
    }
    if let text = arguments.value(of: "--interval") {
      interval = try Self.duration(text, for: "--interval")
    }
    if let path = arguments.value(of: "--source") {
      directory = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }
    if isOnce, seconds != nil { throw UsageError("'once' takes no '--seconds'.") }
    command = isOnce ? .once : .watch(for: seconds)
  }

  private static func duration(_ text: String, for option: String) throws(UsageError) -> Duration {
    guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
      throw UsageError(
        "'\(option)' must be a number of seconds above 0 and at most 86400 (a day);"
          + " '\(text)' is not."
      )
    }
    return .milliseconds(max(1, Int((seconds * 1000).rounded())))
  }
}
