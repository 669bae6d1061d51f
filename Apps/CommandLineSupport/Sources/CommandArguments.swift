/// The command line of one app: its usage, the options that take a value, and how the
/// sorted words become what to do.
///
/// ```swift
/// struct GreetArguments: CommandArguments {
///   static let usage = "Usage: greet [--name <name>]"
///   static let options = ["--name": "a name"]
///   var name: String
///
///   init(_ arguments: ArgumentList) throws(UsageError) {
///     try arguments.expectNoOperands()
///     name = arguments.value(of: "--name") ?? "world"
///   }
/// }
///
/// let arguments = GreetArguments.parseOrExit(on: Terminal(program: "greet"))
/// ```
public protocol CommandArguments: Sendable {
  /// The usage, printed by `--help` and after a usage error.
  static var usage: String { get }

  /// The options that take a value, each with what the value is (`"a path"`); none by
  /// default.
  static var options: [String: String] { get }

  /// Reads what to do from the sorted command line.
  ///
  /// - Parameter arguments: The command line, other than a request for help.
  /// - Throws: A ``UsageError`` describing the first word that does not fit.
  init(_ arguments: ArgumentList) throws(UsageError)
}

extension CommandArguments {
  /// No option takes a value.
  public static var options: [String: String] { [:] }

  /// Parses a command line.
  ///
  /// - Parameter arguments: The command-line arguments, without the program name.
  /// - Returns: The arguments, or `nil` if the user asked for help.
  /// - Throws: A ``UsageError`` describing the first word that does not fit.
  public static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> Self? {
    let list = try ArgumentList(arguments, options: options)
    return list.isHelpRequested ? nil : try Self(list)
  }

  /// Parses the program's command line; prints the usage and exits when the user asked for
  /// help, and exits with ``ExitStatus/usage`` after explaining a usage error as
  /// swift-argument-parser does:
  ///
  /// ```
  /// Error: Unknown command 'archive'.
  /// Usage: todos [--file <path>] [<command>]
  ///   See 'todos --help' for more information.
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name: by default the
  ///     program's own.
  ///   - terminal: Where to print the usage or the error.
  /// - Returns: The arguments.
  public static func parseOrExit(
    _ arguments: some Sequence<String> = CommandLine.arguments.dropFirst(),
    on terminal: Terminal
  ) -> Self {
    do {
      guard let parsed = try parse(arguments) else {
        terminal.say(usage)
        terminal.exit(.success)
      }
      return parsed
    } catch {
      terminal.failUsage(error, usage: usage)
    }
  }
}
