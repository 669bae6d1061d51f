import AppTestSupport
import Foundation
import Testing
import TodosKit

/// Several `todos` processes changing one list at once, as a user's scripts and terminals do.
@Suite struct TodosConcurrentCommandTests {
  @Test func tenAddsAtOnceLeaveTenTodos() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = directory.file("todos.json")
      let adds = try (1...10).map { number in
        try todos.start(["--file", file.path, "add", "Todo \(number)"], in: directory)
      }
      for add in adds {
        let run = await add.finish()
        #expect(run.status == 0, "\(run.errorOutput)")
      }
      let saved = try JSONDecoder().decode(TodoFileContents.self, from: Data(contentsOf: file))
        .todos
      #expect(Set(saved.map(\.title)) == Set((1...10).map { "Todo \($0)" }))
      #expect(saved.map(\.id) == Array(1...10))
    }
  }

  @Test func doneAndAddAtOnceKeepBoth() async throws {
    try await withTemporaryDirectory { directory in
      let todos = try Program("todos")
      let file = directory.file("todos.json")
      for number in 1...5 {
        _ = try await todos.run(["--file", file.path, "add", "Todo \(number)"], in: directory)
      }
      let changes = try (1...5).flatMap { number in
        [
          try todos.start(["--file", file.path, "done", "\(number)"], in: directory),
          try todos.start(["--file", file.path, "add", "More \(number)"], in: directory),
        ]
      }
      for change in changes {
        let run = await change.finish()
        #expect(run.status == 0, "\(run.errorOutput)")
      }
      let saved = try JSONDecoder().decode(TodoFileContents.self, from: Data(contentsOf: file))
        .todos
      #expect(saved.count == 10)
      #expect(saved.filter(\.isDone).map(\.id) == Array(1...5))
    }
  }
}
