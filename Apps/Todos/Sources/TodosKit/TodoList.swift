import CommandLineSupport
public import Foundation
public import SharingCore
import SharingPersistence

/// A todo list kept in a JSON file.
///
/// ```swift
/// let list = TodoList(file: URL(fileURLWithPath: "todos.json"))
/// let todo = try list.add("Buy milk")
/// try list.complete(todo.id)
/// ```
///
/// The file's contents are `@Shared(.fileStorage(file, .coordinated))`: each change is made
/// with the file locked against every other program using it, starts from what the file
/// holds, and is written before it returns, so that two programs adding todos at once both
/// keep theirs. Changes that another program makes to the file are played back into
/// ``todos`` as they happen.
public struct TodoList: Sendable {
  /// The todos, in the order they were added: derived from the file's contents.
  @Shared public var todos: [Todo]
  /// What the file holds: the todos, and the number the next one gets.
  @Shared public var contents: TodoFileContents
  /// The file that holds the list.
  public let file: URL

  /// Reads the list from a JSON file; a missing or empty file is an empty list.
  ///
  /// - Parameter file: The file that holds the list.
  public init(file: URL) {
    _contents = Shared(wrappedValue: TodoFileContents(), .fileStorage(file, .coordinated))
    _todos = _contents.todos
    self.file = file
  }

  /// Why the file could not be read, if it could not: the list is then empty, or the last
  /// list read from it.
  public var loadError: (any Error)? { $contents.loadError }

  /// Why the file could not be read, for the user, if it could not.
  public var unusableFile: UnusableTodoFile? {
    loadError.map { UnusableTodoFile(file: file, loadError: $0) }
  }

  /// Adds a todo at the end of the list.
  ///
  /// - Parameter title: What to do; surrounding white space is dropped.
  /// - Returns: The new todo, numbered one more than any todo the file ever had: a number is
  ///   never given twice.
  /// - Throws: ``TodoError/emptyTitle`` if the title is blank;
  ///   ``TodoError/cannotSave(_:reason:)`` if the file could not be written.
  @discardableResult
  public func add(_ title: String) throws(TodoError) -> Todo {
    let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty else { throw .emptyTitle }
    let todo = $contents.withLock { $0.add(title) }
    try checkSaved()
    return todo
  }

  /// Marks a todo done.
  ///
  /// The change is made through the todo's own shared value, `$todos[id: id]`, derived from
  /// the list: it finds the todo in the list the file holds when the change is made.
  ///
  /// - Parameter id: The number of the todo.
  /// - Returns: The todo, done.
  /// - Throws: ``TodoError/notFound(_:)`` if the list has no such todo, even if another
  ///   program removed it just now; ``TodoError/cannotSave(_:reason:)`` if the file could not
  ///   be written.
  @discardableResult
  public func complete(_ id: Todo.ID) throws(TodoError) -> Todo {
    let todo = try $todos[id: id].withLock { (todo: inout Todo?) throws(TodoError) in
      // NB: Looked up in the latest list, not in memory, which may not hold another
      //     program's removal yet: a todo found only in memory would be changed in a copy.
      guard var done = todo else { throw .notFound(id) }
      done.isDone = true
      todo = done
      return done
    }
    try checkSaved()
    return todo
  }

  /// Removes a todo.
  ///
  /// - Parameter id: The number of the todo.
  /// - Returns: The removed todo.
  /// - Throws: ``TodoError/notFound(_:)`` if the list has no such todo, even if another
  ///   program removed it just now; ``TodoError/cannotSave(_:reason:)`` if the file could not
  ///   be written.
  @discardableResult
  public func remove(_ id: Todo.ID) throws(TodoError) -> Todo {
    let todo = try $todos.withLock { (todos: inout [Todo]) throws(TodoError) in
      guard let index = todos.firstIndex(where: { $0.id == id }) else { throw .notFound(id) }
      return todos.remove(at: index)
    }
    try checkSaved()
    return todo
  }

  /// Throws why the last change could not be written to the file, if it could not: the list
  /// was then left as it was.
  private func checkSaved() throws(TodoError) {
    guard let error = $contents.saveError else { return }
    throw .cannotSave(file, reason: FileProblem.reason(for: error, at: file))
  }
}

/// Why a change to the todo list was refused.
public enum TodoError: Error, Equatable, CustomStringConvertible {
  /// The title was blank.
  case emptyTitle
  /// No todo has this number.
  case notFound(Todo.ID)
  /// The file could not be written, for a reason such as `permission denied`.
  case cannotSave(URL, reason: String)

  /// A description of the error for the user.
  public var description: String {
    switch self {
    case .emptyTitle: "A todo needs a title."
    case .notFound(let id): "There is no todo #\(id)."
    case .cannotSave(let file, let reason): "Cannot write \(file.path): \(reason)."
    }
  }
}
