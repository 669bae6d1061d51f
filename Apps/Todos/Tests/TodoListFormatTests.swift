import Testing
import TodosKit

@Suite struct TodoListFormatTests {
  @Test func todosAreShownOnePerLineWithNumbersAligned() {
    let todos = (8...10).map { Todo(id: $0, title: "Todo \($0)", isDone: $0 == 9) }
    #expect(
      TodoListFormat.lines(todos) == """
        #8  [ ] Todo 8
        #9  [x] Todo 9
        #10 [ ] Todo 10
        """
    )
    #expect(TodoListFormat.summary(todos) == "3 todos, 1 done")
  }

  @Test func emptyListShowsHowToAddATodo() {
    #expect(TodoListFormat.lines([]) == "No todos. Add one with: todos add <title>")
    #expect(TodoListFormat.summary([]) == "0 todos, 0 done")
  }
}
