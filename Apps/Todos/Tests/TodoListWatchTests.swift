import Foundation
import Testing
import TodosKit

@Suite struct TodoListWatchTests {
  private let milk = [Todo(id: 1, title: "Buy milk")]
  private let corrupt = UnusableTodoFile(
    file: URL(fileURLWithPath: "/tmp/todos.json"),
    loadError: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Bad"))
  )

  @Test func listIsShownFirstThenOnlyWhenItChanges() {
    var watch = TodoListWatch()
    #expect(watch.update(todos: [], unusableFile: nil) == .list([]))
    #expect(watch.update(todos: [], unusableFile: nil) == nil)
    #expect(watch.update(todos: milk, unusableFile: nil) == .list(milk))
    #expect(watch.update(todos: milk, unusableFile: nil) == nil)
  }

  @Test func fileBecomingUnusableIsSaidOnce() {
    var watch = TodoListWatch()
    _ = watch.update(todos: milk, unusableFile: nil)
    #expect(watch.update(todos: milk, unusableFile: corrupt) == .unusableFile(corrupt))
    #expect(watch.update(todos: milk, unusableFile: corrupt) == nil)
  }

  @Test func listIsShownAgainOnceTheFileCanBeReadEvenIfUnchanged() {
    var watch = TodoListWatch()
    _ = watch.update(todos: milk, unusableFile: nil)
    _ = watch.update(todos: milk, unusableFile: corrupt)
    #expect(watch.update(todos: milk, unusableFile: nil) == .list(milk))
  }

  @Test func fileUnusableFromTheStartShowsNoList() {
    var watch = TodoListWatch()
    #expect(watch.update(todos: [], unusableFile: corrupt) == .unusableFile(corrupt))
    #expect(watch.update(todos: milk, unusableFile: nil) == .list(milk))
  }
}
