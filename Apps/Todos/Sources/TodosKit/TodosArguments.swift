public import CommandLineSupport

/// The command line of `todos`: what to do, and which file holds the list.
///
/// ```swift
/// let arguments = try TodosArguments.parse(["add", "Buy", "milk"])
/// arguments?.command  // .add(title: "Buy milk")
/// ```
public struct TodosArguments: CommandArguments, Equatable {
  /// What to do.
  public enum Command: Equatable, Sendable {
    /// Show the list.
    case list
    /// Add a todo.
    case add(title: String)
    /// Add a todo for each line read from standard input.
    case addFromInput
    /// Mark a todo done.
    case complete(Todo.ID)
    /// Remove a todo.
    case remove(Todo.ID)
    /// Show the list again whenever its file changes.
    case watch
    /// Run the demonstration in a temporary directory.
    case demo
  }

  /// What to do; ``Command/list`` when no command is given.
  public var command = Command.list
  /// The file given with `--file`, if any.
  public var filePath: String?

  /// The usage, printed by `--help` and after a usage error.
  public static let usage = """
    Usage: todos [--file <path>] [<command>]

    A todo list kept in a JSON file, shared live between every program using it.

    Commands:
      list             Show the list (the default).
      add <title>      Add a todo. 'add -' adds one per line of standard input.
      done <id>        Mark todo #id done.
      rm <id>          Remove todo #id.
      watch            Show the list again whenever the file changes, until Ctrl-C.
      demo             Show what the list can do, in a temporary directory.

    Options:
      --file <path>    The JSON file to use. Default: $TODOS_FILE, or todos/todos.json
                       in the user's data directory.
      -h, --help       Show this help.
    """

  /// `--file` takes a path.
  public static let options = ["--file": "a path"]

  /// Reads what to do from the sorted command line.
  ///
  /// - Parameter arguments: The command line.
  /// - Throws: A ``UsageError`` describing the first word that does not fit.
  public init(_ arguments: ArgumentList) throws(UsageError) {
    filePath = arguments.value(of: "--file")
    guard let name = arguments.operands.first else { return }
    let operands = Array(arguments.operands.dropFirst())
    switch name {
    case "add":
      command = try Self.add(operands)
    case "done":
      command = .complete(try Self.id(operands, for: name))
    case "rm":
      command = .remove(try Self.id(operands, for: name))
    case "list", "watch", "demo":
      guard operands.isEmpty else { throw UsageError("'\(name)' takes no arguments.") }
      command = name == "list" ? .list : name == "watch" ? .watch : .demo
    default:
      throw UsageError("Unknown command '\(name)'.")
    }
  }

  private static func add(_ operands: [String]) throws(UsageError) -> Command {
    guard !operands.isEmpty else { throw UsageError("'add' needs a title, or '-'.") }
    if operands == ["-"] { return .addFromInput }
    let title = operands.joined(separator: " ")
    guard !title.allSatisfy(\.isWhitespace) else {
      throw UsageError("'add' needs a title that is not blank.")
    }
    return .add(title: title)
  }

  /// The number of a todo, written `3` or `#3`.
  private static func id(_ operands: [String], for command: String) throws(UsageError) -> Int {
    guard operands.count == 1 else { throw UsageError("'\(command)' needs one todo number.") }
    let text = operands[0].hasPrefix("#") ? String(operands[0].dropFirst()) : operands[0]
    return try Int(positiveArgument: text, meaning: "A todo number", example: 3)
  }
}
