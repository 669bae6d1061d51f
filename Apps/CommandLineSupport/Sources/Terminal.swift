import Foundation

/// Where a command writes: its output on standard output, its errors on standard error, each
/// error prefixed with the program's name.
///
/// ```swift
/// let terminal = Terminal(program: "todos")
/// terminal.say("Added #1 [ ] Buy milk")
/// terminal.fail("There is no todo #4.")  // "todos: There is no todo #4." on standard error
/// ```
public struct Terminal: Sendable {
  /// The program's name, such as `todos`.
  public let program: String

  /// Creates a terminal for a program.
  ///
  /// - Parameter program: The program's name, which starts every error message.
  public init(program: String) {
    self.program = program
  }

  /// Writes a line to standard output now, even when standard output is a pipe or a file.
  ///
  /// - Parameter line: The line, without its line ending.
  public func say(_ line: String) {
    write(line + "\n")
  }

  /// Writes text to standard output now, as is: a prompt has no line ending.
  ///
  /// - Parameter text: The text.
  public func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes an error to standard error, as `<program>: <message>`.
  ///
  /// - Parameter message: What went wrong.
  public func warn(_ message: String) {
    FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
  }

  /// Writes an error to standard error and exits.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - status: The exit status: ``ExitStatus/failure`` unless the command line was wrong.
  public func fail(_ message: String, status: ExitStatus = .failure) -> Never {
    warn(message)
    exit(status)
  }

  /// Explains a usage error on standard error as swift-argument-parser does, then exits with
  /// ``ExitStatus/usage``: the error, the usage line, and where to find more.
  ///
  /// ```
  /// Error: Unknown command 'archive'.
  /// Usage: todos [--file <path>] [<command>]
  ///   See 'todos --help' for more information.
  /// ```
  ///
  /// - Parameters:
  ///   - error: What does not fit the usage.
  ///   - usage: The command's usage, whose first line is shown.
  public func failUsage(_ error: UsageError, usage: String) -> Never {
    let usageLine = usage.prefix { $0 != "\n" }
    FileHandle.standardError.write(
      Data(
        """
        Error: \(error)
        \(usageLine)
          See '\(program) --help' for more information.

        """.utf8
      )
    )
    exit(.usage)
  }

  /// Exits the program, running its `atexit` handlers (which write pending changes).
  ///
  /// - Parameter status: The exit status.
  public func exit(_ status: ExitStatus) -> Never {
    Foundation.exit(status.rawValue)
  }
}
