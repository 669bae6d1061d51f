/// The command line of `todos`: what to do, and which file holds the list.
///
/// ```swift
/// let arguments = try TodosArguments(parsing: ["add", "Buy", "milk"])
/// arguments.command  // .add(title: "Buy milk")
/// ```
public struct TodosArguments: Equatable, Sendable {
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
    /// Print the usage.
    case help
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

  /// Parses the arguments that follow the program name.
  ///
  /// - Parameter arguments: The command-line arguments, without the program name.
  /// - Throws: A ``UsageError`` describing the first argument that does not fit.
  public init(parsing arguments: some Sequence<String>) throws(UsageError) {
    var words: [String] = []
    var arguments = arguments.makeIterator()
    var isParsingOptions = true
    while let argument = arguments.next() {
      switch argument {
      case _ where !isParsingOptions:
        words.append(argument)
      case "--":
        isParsingOptions = false
      case "-h", "--help":
        command = .help
        return
      case "--file":
        guard let path = arguments.next() else { throw UsageError("'--file' needs a path.") }
        filePath = path
      case _ where argument.hasPrefix("--file="):
        filePath = String(argument.dropFirst("--file=".count))
      case _ where argument.hasPrefix("-") && argument != "-":
        throw UsageError("Unknown option '\(argument)'.")
      default:
        words.append(argument)
      }
    }
    command = try Self.command(from: words)
  }

  private static func command(from words: [String]) throws(UsageError) -> Command {
    guard let name = words.first else { return .list }
    let operands = Array(words.dropFirst())
    switch name {
    case "add":
      guard !operands.isEmpty else { throw UsageError("'add' needs a title, or '-'.") }
      return operands == ["-"] ? .addFromInput : .add(title: operands.joined(separator: " "))
    case "done":
      return .complete(try id(operands, for: name))
    case "rm":
      return .remove(try id(operands, for: name))
    case "list", "watch", "demo":
      guard operands.isEmpty else { throw UsageError("'\(name)' takes no arguments.") }
      return name == "list" ? .list : name == "watch" ? .watch : .demo
    default:
      throw UsageError("Unknown command '\(name)'.")
    }
  }

  /// The number of a todo, written `3` or `#3`.
  private static func id(_ operands: [String], for command: String) throws(UsageError) -> Int {
    guard operands.count == 1 else { throw UsageError("'\(command)' needs one todo number.") }
    let text = operands[0].hasPrefix("#") ? operands[0].dropFirst() : Substring(operands[0])
    guard let id = Int(text), id > 0 else {
      throw UsageError("'\(operands[0])' is not a todo number.")
    }
    return id
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
