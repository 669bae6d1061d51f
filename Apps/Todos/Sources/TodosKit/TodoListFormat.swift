/// How todos are shown in a terminal.
///
/// ```
/// #1 [ ] Buy milk
/// #2 [x] Walk the dog
/// ```
public enum TodoListFormat {
  /// One line per todo, numbers aligned; a hint when there are none.
  ///
  /// - Parameter todos: The todos to show.
  /// - Returns: The lines, without a trailing newline.
  public static func lines(_ todos: [Todo]) -> String {
    guard !todos.isEmpty else { return "No todos. Add one with: todos add <title>" }
    let width = todos.map { "\($0.id)".count }.max() ?? 0
    return todos.map { line($0, width: width) }.joined(separator: "\n")
  }

  /// One todo: its number, whether it is done, and its title.
  ///
  /// - Parameters:
  ///   - todo: The todo.
  ///   - width: The number of digits to align the number to.
  /// - Returns: A line such as `#2 [x] Walk the dog`.
  public static func line(_ todo: Todo, width: Int = 0) -> String {
    let number = "\(todo.id)"
    let padding = String(repeating: " ", count: max(0, width - number.count))
    return "#\(number)\(padding) [\(todo.isDone ? "x" : " ")] \(todo.title)"
  }

  /// A count of todos and of those done, such as `3 todos, 1 done`.
  ///
  /// - Parameter todos: The todos to count.
  /// - Returns: The summary.
  public static func summary(_ todos: [Todo]) -> String {
    let done = todos.filter(\.isDone).count
    return "\(todos.count) \(todos.count == 1 ? "todo" : "todos"), \(done) done"
  }
}
