import Foundation

/// Where the flow asks its questions and reads the answers.
public protocol Console {
  /// Reads one line of input, without its line ending; `nil` at the end of input.
  mutating func readLine() -> String?

  /// Writes text, as is: a prompt has no line ending.
  mutating func write(_ text: String)
}

/// The terminal: standard input and standard output.
///
/// When standard input is not a terminal (`signup < answers.txt`), each answer is echoed
/// after its prompt, so that the output reads like the conversation it was.
public struct StandardConsole: Console {
  private let echoesInput = isatty(STDIN_FILENO) == 0

  /// Creates a console on standard input and output.
  public init() {}

  /// Reads a line from standard input.
  public mutating func readLine() -> String? {
    let line = Swift.readLine()
    if echoesInput, let line { write("\(line)\n") }
    return line
  }

  /// Writes text to standard output at once, unbuffered, so that a prompt shows before
  /// the program waits for its answer.
  public mutating func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
