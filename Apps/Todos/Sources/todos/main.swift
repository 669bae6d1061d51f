// todos: a todo list kept in a JSON file with '@Shared(.fileStorage(url, .coordinated))',
// shared live between every program that uses the file; programs changing it at once each
// keep their change.
//
//   swift run todos demo                 the tour: every feature, in a temporary directory
//   swift run todos add Buy milk         adds a todo
//   swift run todos done 1               marks todo #1 done
//   swift run todos watch                shows the list again whenever the file changes

import CommandLineSupport
import Foundation
import TodosKit

let terminal = Terminal(program: "todos")
let arguments = TodosArguments.parseOrExit(on: terminal)
// NB: Ctrl-C and 'kill' end the program through 'exit', which writes pending changes.
Termination.exitOnSignals()
let file = TodosFile.url(path: arguments.filePath)

/// Opens the list; refuses a file it cannot read, so that it is never overwritten.
func openList() -> TodoList {
  let list = TodoList(file: file)
  if let unusableFile = list.unusableFile { terminal.fail("\(unusableFile)") }
  return list
}

/// Shows the list, then shows it again whenever it changes, and says when the file becomes
/// unusable, until Ctrl-C.
func watch() async {
  let list = TodoList(file: file)
  terminal.say("Watching \(file.path). Press Ctrl-C to stop.")
  var watch = TodoListWatch()
  // NB: The list is kept current by its key, in the background; this loop only shows it
  //     when it, or whether its file can be read, changes.
  while true {
    switch watch.update(todos: list.todos, unusableFile: list.unusableFile) {
    case .list(let todos):
      terminal.say("\n── \(TodoListFormat.summary(todos)) ──")
      terminal.say(TodoListFormat.lines(todos))
    case .unusableFile(let unusableFile):
      terminal.warn("\(unusableFile)")
    case nil:
      break
    }
    try? await Task.sleep(for: .milliseconds(50))
  }
}

do {
  switch arguments.command {
  case .demo:
    try await TodosDemo(otherProgram: Bundle.main.executableURL, output: terminal.say).run()
  case .list:
    terminal.say(TodoListFormat.lines(openList().todos))
  case .add(let title):
    let list = openList()
    let todo = try list.add(title)
    terminal.say("Added \(TodoListFormat.line(todo))")
  case .addFromInput:
    let list = openList()
    while let title = readLine() {
      guard !title.allSatisfy(\.isWhitespace) else { continue }
      terminal.say("Added \(TodoListFormat.line(try list.add(title)))")
    }
  case .complete(let id):
    let list = openList()
    let todo = try list.complete(id)
    terminal.say("Done: \(TodoListFormat.line(todo))")
  case .remove(let id):
    let list = openList()
    let todo = try list.remove(id)
    terminal.say("Removed \(TodoListFormat.line(todo))")
  case .watch:
    await watch()
  }
} catch {
  terminal.fail("\(error)")
}
