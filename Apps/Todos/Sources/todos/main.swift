// todos: a todo list kept in a JSON file with '@Shared(.fileStorage(url))', shared live
// between every program that uses the file.
//
//   swift run todos demo                 the tour: every feature, in a temporary directory
//   swift run todos add Buy milk         adds a todo
//   swift run todos done 1               marks todo #1 done
//   swift run todos watch                shows the list again whenever the file changes

import Foundation
import SharingCore
import TodosKit

/// Prints a line now, even when standard output is a pipe or a file.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

/// Prints a message on standard error.
func warn(_ message: String) {
  FileHandle.standardError.write(Data("todos: \(message)\n".utf8))
}

/// Prints a message on standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
  warn(message)
  exit(status)
}

let arguments: TodosArguments
do {
  arguments = try TodosArguments(parsing: CommandLine.arguments.dropFirst())
} catch {
  fail("\(error)\n\n\(TodosArguments.usage)", status: 64)
}
let file = TodosFile.url(path: arguments.filePath)

/// Opens the list; refuses a file it cannot read, so that it is never overwritten.
func openList() -> TodoList {
  let list = TodoList(file: file)
  if let error = list.loadError { fail("Cannot read \(file.path): \(error.localizedDescription)") }
  // NB: Ctrl-C and 'kill' end the program through 'exit', which writes pending changes.
  Termination.exitOnSignals()
  return list
}

/// Shows the list, then shows it again whenever the file changes, until Ctrl-C.
func watch() async {
  Termination.exitOnSignals(status: 0)
  let list = TodoList(file: file)
  say("Watching \(file.path). Press Ctrl-C to stop.")
  for await todos in list.$todos.values {
    say("\n── \(TodoListFormat.summary(todos)) ──")
    say(TodoListFormat.lines(todos))
    if let error = list.loadError {
      warn("Cannot read \(file.path): \(error.localizedDescription)")
    }
  }
}

do {
  switch arguments.command {
  case .help:
    say(TodosArguments.usage)
  case .demo:
    try await TodosDemo(otherProgram: Bundle.main.executableURL, output: say).run()
  case .list:
    say(TodoListFormat.lines(openList().todos))
  case .add(let title):
    let list = openList()
    let todo = try list.add(title)
    try await list.save()
    say("Added \(TodoListFormat.line(todo))")
  case .addFromInput:
    let list = openList()
    while let title = readLine() {
      guard !title.allSatisfy(\.isWhitespace) else { continue }
      say("Added \(TodoListFormat.line(try list.add(title)))")
    }
    try await list.save()
  case .complete(let id):
    let list = openList()
    let todo = try list.complete(id)
    try await list.save()
    say("Done: \(TodoListFormat.line(todo))")
  case .remove(let id):
    let list = openList()
    let todo = try list.remove(id)
    try await list.save()
    say("Removed \(TodoListFormat.line(todo))")
  case .watch:
    await watch()
  }
} catch {
  fail("\(error)")
}
