public import CommandLineSupport

/// The command line of `signup`, which takes no arguments: the answers come from standard
/// input.
public struct SignUpArguments: CommandArguments {
  /// The usage, printed by `--help` and after a usage error.
  public static let usage = """
    Usage: signup

    Signs you up in three steps: about you, phone number, summary. Reads the answers
    from standard input, one per line, so it also runs from a file or a pipe. Answer
    'no' at the summary to leave without submitting.

    Options:
      -h, --help    Show this help.
    """

  /// Checks that the command line is empty.
  ///
  /// - Parameter arguments: The command line.
  /// - Throws: A ``UsageError`` naming the first argument.
  public init(_ arguments: ArgumentList) throws(UsageError) {
    try arguments.expectNoOperands()
  }
}
