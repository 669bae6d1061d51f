import AppTestSupport
import Foundation
import Testing
import TodosKit

/// The built `todos`, run as a user would run it, against real files in a temporary
/// directory.
@Suite struct TodosCommandTests {
  @Test func commandsChangeTheListInTheFile() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = ["--file", directory.file("todos.json").path]
      let add = try await todos.run(file + ["add", "Buy", "milk"], in: directory)
      _ = try await todos.run(file + ["add", "Walk the dog"], in: directory)
      let done = try await todos.run(file + ["done", "#2"], in: directory)
      let remove = try await todos.run(file + ["rm", "1"], in: directory)
      let list = try await todos.run(file, in: directory)

      #expect(add.output == "Added #1 [ ] Buy milk\n")
      #expect(done.output == "Done: #2 [x] Walk the dog\n")
      #expect(remove.output == "Removed #1 [ ] Buy milk\n")
      #expect(list.status == 0)
      #expect(list.output == "#2 [x] Walk the dog\n")
      #expect(
        try savedTodos(directory.file("todos.json")) == [
          Todo(id: 2, title: "Walk the dog", isDone: true)
        ]
      )
    }
  }

  @Test func numberOfARemovedTodoIsNeverGivenAgain() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = ["--file", directory.file("todos.json").path]
      _ = try await todos.run(file + ["add", "Buy milk"], in: directory)
      _ = try await todos.run(file + ["add", "Walk the dog"], in: directory)
      _ = try await todos.run(file + ["rm", "2"], in: directory)
      let add = try await todos.run(file + ["add", "Call mom"], in: directory)
      let done = try await todos.run(file + ["done", "2"], in: directory)

      #expect(add.output == "Added #3 [ ] Call mom\n")
      #expect(done.status == 1)
      #expect(done.errorOutput == "todos: There is no todo #2.\n")
      #expect(try savedTodos(directory.file("todos.json")).map(\.id) == [1, 3])
    }
  }

  @Test func directoryThatCannotBeWrittenIsNamedInOneLine() async throws {
    try await withTemporaryDirectory { directory in
      let readOnly = directory.file("read-only")
      try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
      try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
      let file = readOnly.appendingPathComponent("todos.json")
      let run = try await Program("todos").run(
        ["--file", file.path, "add", "Buy milk"],
        in: directory,
        isUnprivileged: true
      )
      #expect(run.status == 1)
      #expect(
        run.errorOutput
          == "todos: Cannot write \(file.path): \(readOnly.path) is not writable"
          + " (permission denied).\n"
      )
      #expect(!FileManager.default.fileExists(atPath: file.path))
    }
  }

  @Test func fileComesFromTheEnvironmentWithoutAnOption() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("from-env.json")
      let run = try await Program("todos").run(
        ["add", "Call mom"],
        in: directory,
        environment: ["TODOS_FILE": file.path]
      )
      #expect(run.status == 0)
      #expect(try savedTodos(file) == [Todo(id: 1, title: "Call mom")])
    }
  }

  @Test func watchShowsAChangeMadeByAnotherProcessUntilCtrlC() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = ["--file", directory.file("todos.json").path]
      let watch = try todos.start(file + ["watch"], in: directory)
      await watch.waitForOutput("the empty list") { $0.contains("No todos.") }

      let add = try await todos.run(file + ["add", "Buy milk"], in: directory)
      #expect(add.status == 0)
      await watch.waitForOutput("the added todo") { $0.contains("#1 [ ] Buy milk") }

      watch.send(SIGINT)
      let run = await watch.finish()
      #expect(run.status == 130)
      #expect(!run.isSignalled)
      #expect(run.output.contains("── 1 todo, 0 done ──\n#1 [ ] Buy milk\n"))
    }
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func signalLeavesTheLatestListInTheFile(signal: Int32) async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("todos.json")
      let adding = try Program("todos").start(["--file", file.path, "add", "-"], in: directory)
      // NB: Each change is written before 'add' returns: the signal finds nothing pending,
      //     and the file holds every todo added.
      adding.write("Buy milk\nWalk the dog\nWrite the report\n")
      await adding.waitForOutput("the third todo") { $0.contains("Added #3") }

      adding.send(signal)
      let run = await adding.finish()

      #expect(run.status == 128 + signal)
      #expect(!run.isSignalled)
      #expect(
        try savedTodos(file).map(\.title) == ["Buy milk", "Walk the dog", "Write the report"]
      )
    }
  }

  @Test func demoShowsChangesPlayedBackLiveAndCleansUp() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("todos").run(
        ["demo"],
        in: directory,
        environment: ["TMPDIR": directory.url.path]
      )
      #expect(run.status == 0, "\(run.errorOutput)")
      #expect(run.output.contains("   #2 [x] Walk the dog\n"))
      #expect(run.output.contains("   Added #4 [ ] Call mom\n"))
      #expect(run.output.contains("   #1 [ ] Buy oat milk\n"))
      #expect(
        run.output.contains("The Shared<Todo> for #1 taken in step 2 reads \"Buy oat milk\" too.")
      )
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      #expect(!leftovers.contains { $0.hasPrefix("todos-demo-") })
    }
  }

  @Test func directoryInPlaceOfTheFileIsARuntimeError() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("todos").run(
        ["--file", directory.url.path, "add", "Buy milk"],
        in: directory
      )
      #expect(run.status == 1)
      #expect(
        run.errorOutput.hasSuffix(
          "todos: Cannot use \(directory.url.path): it is a directory, not a file."
            + " The file was left untouched.\n"
        )
      )
    }
  }

  @Test(arguments: [["list"], ["add", "Buy milk"]])
  func corruptFileIsExplainedInOneLineAndLeftUntouched(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("todos.json")
      try Data("{not json".utf8).write(to: file)
      let run = try await Program("todos").run(["--file", file.path] + command, in: directory)

      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      // NB: Exactly one line: a corrupt file is a 'loadError', not a reported issue, so the
      //     library adds no warning of its own.
      #expect(
        run.errorOutput
          == "todos: Cannot use \(file.path): it is not valid JSON. The file was left untouched.\n"
      )
      #expect(try String(contentsOf: file, encoding: .utf8) == "{not json")
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      #expect(!files.contains { $0.hasPrefix("todos.json.") })
    }
  }

  @Test func watchSaysWhenTheFileBecomesCorruptThenShowsItOnceFixed() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = ["--file", directory.file("todos.json").path]
      _ = try await todos.run(file + ["add", "Buy milk"], in: directory)
      let watch = try todos.start(file + ["watch"], in: directory)
      await watch.waitForOutput("the list") { $0.contains("#1 [ ] Buy milk") }

      try directory.replace("todos.json", with: "[{\"id\": 1}]")
      await watch.waitForOutput("the corrupt file", on: .standardError) {
        $0.contains(
          "todos: Cannot use \(directory.file("todos.json").path): it is not a todo list"
            + " (todo 1 has no \"title\"). The file was left untouched.\n"
        )
      }
      try directory.replace(
        "todos.json",
        with: #"[{"id": 1, "title": "Buy oat milk", "isDone": false}]"#
      )
      await watch.waitForOutput("the fixed list") { $0.contains("#1 [ ] Buy oat milk") }

      watch.send(SIGTERM)
      let run = await watch.finish()
      #expect(run.status == 143)
      #expect(
        run.output.hasSuffix(
          "── 1 todo, 0 done ──\n#1 [ ] Buy milk\n\n── 1 todo, 0 done ──\n#1 [ ] Buy oat milk\n"
        )
      )
    }
  }

  @Test func fileWhereADirectoryShouldBeIsNamed() async throws {
    try await withTemporaryDirectory { directory in
      try Data().write(to: directory.file("notes"))
      let file = directory.file("notes/todos.json")
      let run = try await Program("todos").run(["--file", file.path, "add", "Milk"], in: directory)
      #expect(run.status == 1)
      #expect(
        run.errorOutput
          == "todos: Cannot write \(file.path): \(directory.file("notes").path) is a file,"
          + " not a directory.\n"
      )
    }
  }

  @Test(arguments: [
    (["done", "-1"], "A todo number must be a positive integer, such as 3; '-1' is not."),
    (["add", ""], "'add' needs a title that is not blank."),
    (["archive"], "Unknown command 'archive'."),
  ])
  func usageErrorIsTheErrorTheUsageLineAndWhereToFindMore(
    command: [String],
    message: String
  ) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("todos").run(
        ["--file", directory.file("todos.json").path] + command,
        in: directory
      )
      #expect(run.status == 64)
      #expect(run.output.isEmpty)
      #expect(
        run.errorOutput == """
          Error: \(message)
          Usage: todos [--file <path>] [<command>]
            See 'todos --help' for more information.

          """
      )
    }
  }

  @Test func unknownTodoIsARuntimeError() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = ["--file", directory.file("todos.json").path]
      let done = try await todos.run(file + ["done", "4"], in: directory)
      #expect(done.status == 1)
      #expect(done.errorOutput == "todos: There is no todo #4.\n")
    }
  }

  private func savedTodos(_ file: URL) throws -> [Todo] {
    try JSONDecoder().decode(TodoFileContents.self, from: Data(contentsOf: file)).todos
  }
}
