/// What a todo file holds: the todos, and the number the next todo gets.
///
/// ```json
/// {
///   "nextID" : 4,
///   "todos" : [ { "id" : 3, "isDone" : false, "title" : "Call mom" } ]
/// }
/// ```
///
/// A number is never given twice: after todo #3 is removed, the next todo is #4, so that
/// `todos done 3` typed from an old listing cannot mark another todo. A file holding only an
/// array of todos, as earlier versions wrote, is read too; its next number is one more than
/// its highest.
public struct TodoFileContents: Equatable, Sendable {
  /// The todos, in the order they were added.
  public var todos: [Todo]
  /// The number the next todo gets: higher than every number given in this file so far.
  public private(set) var nextID: Int

  /// Creates the contents of a file.
  ///
  /// - Parameters:
  ///   - todos: The todos.
  ///   - nextID: The number the next todo gets; raised above the highest number of `todos`.
  public init(todos: [Todo] = [], nextID: Int = 1) {
    self.todos = todos
    self.nextID = max(nextID, (todos.map(\.id).max() ?? 0) + 1)
  }

  /// Adds a todo at the end, numbered ``nextID``.
  ///
  /// - Parameter title: What to do.
  /// - Returns: The new todo.
  public mutating func add(_ title: String) -> Todo {
    let todo = Todo(id: nextID, title: title)
    todos.append(todo)
    nextID += 1
    return todo
  }
}

extension TodoFileContents: Codable {
  private enum CodingKeys: String, CodingKey {
    case nextID, todos
  }

  /// Reads `{"nextID": …, "todos": […]}`, or an array of todos.
  public init(from decoder: any Decoder) throws {
    if (try? decoder.unkeyedContainer()) != nil {
      self.init(todos: try decoder.singleValueContainer().decode([Todo].self))
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      todos: try container.decode([Todo].self, forKey: .todos),
      nextID: try container.decodeIfPresent(Int.self, forKey: .nextID) ?? 1
    )
  }

  /// Writes `{"nextID": …, "todos": […]}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(nextID, forKey: .nextID)
    try container.encode(todos, forKey: .todos)
  }
}
