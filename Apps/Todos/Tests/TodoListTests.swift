import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing
import TodosKit

/// The todo list's logic, on the virtual file system each test gets.
@Suite struct TodoListTests {
  let file = URL(fileURLWithPath: "/todos/todos.json")

  @Test func todosAreNumberedOneMoreThanTheHighestNumber() throws {
    let list = TodoList(file: file)
    try list.add("Buy milk")
    try list.add("Walk the dog")
    try list.remove(1)
    let todo = try list.add("  Write the report  ")
    #expect(todo == Todo(id: 3, title: "Write the report"))
    #expect(list.todos.map(\.id) == [2, 3])
  }

  @Test func numberOfARemovedTodoIsNeverGivenAgain() throws {
    let list = TodoList(file: file)
    try list.add("Buy milk")
    try list.add("Walk the dog")
    try list.remove(2)
    let todo = try list.add("Write the report")
    #expect(todo == Todo(id: 3, title: "Write the report"))
    #expect(throws: TodoError.notFound(2)) { try list.complete(2) }
  }

  @Test func fileOfAnEarlierVersionIsReadAndNumberingGoesOn() throws {
    @Dependency(\.defaultFileStorage) var storage
    storage.simulateExternalWrite(
      Data(#"[{"id": 4, "title": "Buy milk", "isDone": true}]"#.utf8),
      to: file
    )
    let list = TodoList(file: file)
    #expect(list.todos == [Todo(id: 4, title: "Buy milk", isDone: true)])
    #expect(try list.add("Walk the dog").id == 5)
  }

  @Test func blankTitleIsRefused() {
    let list = TodoList(file: file)
    #expect(throws: TodoError.emptyTitle) { try list.add(" \t") }
    #expect(list.todos.isEmpty)
  }

  @Test func completingATodoChangesTheListEverywhere() throws {
    let list = TodoList(file: file)
    let other = TodoList(file: file)
    try list.add("Buy milk")
    try list.add("Walk the dog")

    let done = try list.complete(2)

    #expect(done == Todo(id: 2, title: "Walk the dog", isDone: true))
    #expect(other.todos.map(\.isDone) == [false, true])
  }

  @Test func unknownTodoIsReported() throws {
    let list = TodoList(file: file)
    try list.add("Buy milk")
    #expect(throws: TodoError.notFound(7)) { try list.complete(7) }
    #expect(throws: TodoError.notFound(7)) { try list.remove(7) }
    #expect(list.todos == [Todo(id: 1, title: "Buy milk")])
  }

  @Test func eachChangeIsInTheFileAsJSONWhenItReturns() throws {
    @Dependency(\.defaultFileStorage) var storage
    let list = TodoList(file: file)
    try list.add("Buy milk")

    let data = try #require(storage.contents(of: file))
    #expect(
      String(decoding: data, as: UTF8.self) == """
        {
          "nextID" : 2,
          "todos" : [
            {
              "id" : 1,
              "isDone" : false,
              "title" : "Buy milk"
            }
          ]
        }
        """
    )
  }

  @Test func aChangeStartsFromTheListAnotherProgramWroteMeanwhile() throws {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let list = TodoList(file: file)
      try list.add("Buy milk")
      // NB: Not played back until the scheduler runs: only the change's own read sees it.
      storage.simulateExternalWrite(
        Data(
          #"[{"id": 1, "title": "Buy milk", "isDone": false}, {"id": 2, "title": "Call mom", "isDone": false}]"#
            .utf8
        ),
        to: file
      )
      let todo = try list.add("Walk the dog")
      #expect(todo.id == 3)
      #expect(list.todos.map(\.title) == ["Buy milk", "Call mom", "Walk the dog"])
    }
  }

  @Test func completingATodoAnotherProgramRemovedMeanwhileIsNotFound() throws {
    try withListAnotherProgramChangesMeanwhile { list, storage in
      let remaining = Data(#"[{"id": 1, "title": "Buy milk", "isDone": false}]"#.utf8)
      // NB: Not played back until the scheduler runs: memory still holds #2, and only the
      //     change's own read of the file sees that it is gone.
      storage.simulateExternalWrite(remaining, to: file)

      #expect(throws: TodoError.notFound(2)) { try list.complete(2) }
      #expect(storage.contents(of: file) == remaining)
      #expect(list.$todos.saveError == nil)
    }
  }

  @Test func removingATodoAnotherProgramRemovedMeanwhileIsNotFound() throws {
    try withListAnotherProgramChangesMeanwhile { list, storage in
      let remaining = Data(#"[{"id": 1, "title": "Buy milk", "isDone": false}]"#.utf8)
      storage.simulateExternalWrite(remaining, to: file)

      #expect(throws: TodoError.notFound(2)) { try list.remove(2) }
      #expect(storage.contents(of: file) == remaining)
      #expect(list.$todos.saveError == nil)
    }
  }

  /// Runs `body` on a list holding "Buy milk" (#1) and "Walk the dog" (#2), in a file whose
  /// changes by other programs are played back only when a test's scheduler runs.
  private func withListAnotherProgramChangesMeanwhile(
    _ body: (TodoList, FileStorage) throws -> Void
  ) throws {
    let storage = FileStorage.inMemory(scheduler: ManualWriteScheduler())
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let list = TodoList(file: file)
      try list.add("Buy milk")
      try list.add("Walk the dog")
      try body(list, storage)
    }
  }

  @Test func changeToTheFileByAnotherProgramIsPlayedBack() throws {
    @Dependency(\.defaultFileStorage) var storage
    let list = TodoList(file: file)
    try list.add("Buy milk")
    let milk = try #require(Array(list.$todos).first)

    storage.simulateExternalWrite(
      Data(#"[{"id": 1, "title": "Buy oat milk", "isDone": true}]"#.utf8),
      to: file
    )

    #expect(list.todos == [Todo(id: 1, title: "Buy oat milk", isDone: true)])
    #expect(milk.wrappedValue == Todo(id: 1, title: "Buy oat milk", isDone: true))
  }

  @Test func undecodableFileGivesALoadErrorAndAnEmptyList() {
    @Dependency(\.defaultFileStorage) var storage
    storage.simulateExternalWrite(Data("{ not json".utf8), to: file)
    // NB: A condition of the data, not a programmer error: no issue is reported.
    let list = TodoList(file: file)
    #expect(list.loadError != nil)
    #expect(list.unusableFile?.reason == "it is not valid JSON")
    #expect(list.todos.isEmpty)
  }
}
