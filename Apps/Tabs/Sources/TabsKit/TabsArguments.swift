public import CommandLineSupport

/// The command line of `tabs`, which takes no arguments: the commands come from standard
/// input.
public struct TabsArguments: CommandArguments {
  /// The usage, printed by `--help` and after a usage error.
  public static let usage = """
    Usage: tabs

    A counter tab and a profile tab sharing their statistics. Reads commands from
    standard input, one per line, so it also runs from a file or a pipe.

    \(TabsCommand.list)
    """

  /// Checks that the command line is empty.
  ///
  /// - Parameter arguments: The command line.
  /// - Throws: A ``UsageError`` naming the first argument.
  public init(_ arguments: ArgumentList) throws(UsageError) {
    try arguments.expectNoOperands()
  }
}
