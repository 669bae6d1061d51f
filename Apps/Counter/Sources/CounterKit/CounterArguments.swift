public import CommandLineSupport

/// The command line of `counter`: what to do, and where the values are kept.
///
/// ```swift
/// let arguments = try CounterArguments.parse(["increment", "5"])
/// arguments?.command  // .increment(by: 5)
/// ```
public struct CounterArguments: CommandArguments, Equatable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Show the count and the launch count.
    case show
    /// Add to the count.
    case increment(by: Int)
    /// Set the count back to zero.
    case reset
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
                        user defaults of 'counter'. '.plist' is added to a path that
                        does not end with it: '--store state' uses state.plist.
      -h, --help        Show this help.

    Every run counts as a launch, if the values can be saved.
    """

  /// `--store` takes a path.
  public static let options = ["--store": "a path"]

  /// Reads what to do from the sorted command line.
  ///
  /// - Parameter arguments: The command line.
  /// - Throws: A ``UsageError`` describing the first word that does not fit.
  public init(_ arguments: ArgumentList) throws(UsageError) {
    storePath = arguments.value(of: "--store")
    let words = arguments.operands
    switch (words.first, words.count) {
    case (nil, _):
      command = .show
    case ("increment", 1):
      command = .increment(by: 1)
    case ("increment", 2):
      let amount = try Int(positiveArgument: words[1], meaning: "The amount to add", example: 5)
      command = .increment(by: amount)
    case ("reset", 1):
      command = .reset
    case ("increment", _), ("reset", _):
      throw UsageError("Too many arguments for '\(words[0])'.")
    case (let word?, _):
      throw UsageError("Unknown command '\(word)'.")
    }
  }
}
