public import Foundation
import SharingCore
import SharingDependencies

/// The package's main example, run by `swift run todos demo`.
///
/// In a temporary directory, it fills a todo list kept in a JSON file, marks a todo done
/// through that todo's own `Shared<Todo>`, then lets another process and an "editor" change
/// the file, and shows each change arrive live in this process. Then it removes the
/// directory.
public struct TodosDemo: Sendable {
  private let otherProgram: URL?
  private let output: @Sendable (String) -> Void

  /// Creates the demonstration.
  ///
  /// - Parameters:
  ///   - otherProgram: The `todos` executable, run as the other process; without it that
  ///     step is skipped.
  ///   - output: Where to write each line of the demonstration.
  public init(otherProgram: URL?, output: @escaping @Sendable (String) -> Void) {
    self.otherProgram = otherProgram
    self.output = output
  }

  /// Runs the demonstration.
  ///
  /// - Throws: ``DemoError`` if a change is not played back in time, or the error of a file
  ///   operation.
  public func run() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("todos-demo-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    RemovedAtExit.add(directory)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await tour(file: directory.appendingPathComponent("todos.json"))
    output("Removed \(directory.path). Try it on your own list:")
    output("  swift run todos add Buy milk      # and in another terminal: swift run todos watch")
  }

  private func tour(file: URL) async throws {
    output("A todo list in \(file.path), held by")
    output("'@Shared(.fileStorage(url, .coordinated)) var contents = TodoFileContents()',")
    output("and its todos by '$todos = $contents.todos', derived from it.")
    let list = TodoList(file: file)

    step(1, "Add three todos with '$contents.withLock { $0.add(title) }':")
    for title in ["Buy milk", "Walk the dog", "Write the report"] {
      try list.add(title)
    }
    show(list.todos)

    step(2, "Mark #2 done through its own Shared<Todo>, taken from 'Array($todos)':")
    let rows = Array(list.$todos)
    rows[1].withLock { $0.isDone = true }
    show(list.todos)

    step(3, "Each change was written before 'withLock' returned, with the file locked:")
    show(try String(contentsOf: file, encoding: .utf8))

    if let otherProgram {
      step(4, "Another process adds a todo to the file:")
      output("   $ todos --file \(file.lastPathComponent) add Call mom")
      show(try run(otherProgram, ["--file", file.path, "add", "Call mom"]))
      try await showPlayback(of: list, by: "the other process") {
        $0.contains { $0.title == "Call mom" }
      }
    }

    step(5, "An editor changes \"Buy milk\" to \"Buy oat milk\" and saves the file:")
    let text = try String(contentsOf: file, encoding: .utf8)
    // NB: Saved in place, as many editors do. Not '.atomic': on Linux, Foundation leaves a
    //     directory behind in /tmp for each atomic write.
    try Data(text.replacingOccurrences(of: "\"Buy milk\"", with: "\"Buy oat milk\"").utf8)
      .write(to: file)
    try await showPlayback(of: list, by: "the editor") { $0.first?.title == "Buy oat milk" }
    output(
      "   The Shared<Todo> for #1 taken in step 2 reads \"\(rows[0].wrappedValue.title)\" too."
    )
    output("")
  }

  private func step(_ number: Int, _ title: String) {
    output("")
    output("\(number). \(title)")
  }

  private func show(_ todos: [Todo]) {
    show(TodoListFormat.lines(todos))
  }

  private func show(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false)
    where !line.isEmpty {
      output("   \(line)")
    }
  }

  private func showPlayback(
    of list: TodoList,
    by writer: String,
    until condition: @escaping @Sendable ([Todo]) -> Bool
  ) async throws {
    guard let todos = await list.$todos.firstValue(where: condition, timeout: .seconds(10))
    else { throw DemoError.notPlayedBack(writer) }
    output("   This process's '$todos' saw the change live:")
    show(todos)
  }

  /// Runs a program to completion and returns its standard output.
  private func run(_ program: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    let standardOutput = Pipe()
    process.executableURL = program
    process.arguments = arguments
    process.standardOutput = standardOutput
    try process.run()
    let data = standardOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DemoError.otherProcessFailed(process.terminationStatus)
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// Why the demonstration stopped.
public enum DemoError: Error, CustomStringConvertible {
  /// A change to the file did not reach the list in time.
  case notPlayedBack(String)
  /// The other process failed.
  case otherProcessFailed(Int32)

  /// A description of the error for the user.
  public var description: String {
    switch self {
    case .notPlayedBack(let writer):
      "The change made by \(writer) did not reach this process in time."
    case .otherProcessFailed(let status):
      "The other 'todos' process failed with status \(status)."
    }
  }
}

/// Directories removed when the program exits, however it exits: Ctrl-C ends it through
/// `exit`, which skips the `defer` that removes the demonstration's directory.
private enum RemovedAtExit {
  private static let directories: Locked<[URL]> = {
    atexit {
      for directory in RemovedAtExit.directories.withLock({ $0 }) {
        try? FileManager.default.removeItem(at: directory)
      }
    }
    return Locked([])
  }()

  static func add(_ directory: URL) {
    directories.withLock { $0.append(directory) }
  }
}
