/// What `todos watch` shows as a list and its file change: the list each time it changes, and
/// one line each time the file becomes unusable.
///
/// ```swift
/// var watch = TodoListWatch()
/// watch.update(todos: list.todos, unusableFile: list.unusableFile)  // .list([…]), then nil
/// ```
///
/// While the file cannot be used, the list keeps its last readable value, and the list
/// shown stays as it was; once the file can be read again, the list is shown again.
public struct TodoListWatch: Sendable {
  /// Something to show.
  public enum Output: Equatable, Sendable {
    /// The list, as it now is.
    case list([Todo])
    /// Why the file cannot be used.
    case unusableFile(UnusableTodoFile)
  }

  private var shownList: [Todo]?
  private var shownProblem: UnusableTodoFile?

  /// Starts with nothing shown.
  public init() {}

  /// What to show for the list and its file as they are now.
  ///
  /// - Parameters:
  ///   - todos: The list.
  ///   - unusableFile: Why the file cannot be used, if it cannot.
  /// - Returns: What to show, or `nil` if it was already shown.
  public mutating func update(todos: [Todo], unusableFile: UnusableTodoFile?) -> Output? {
    defer { shownProblem = unusableFile }
    if let unusableFile {
      return unusableFile == shownProblem ? nil : .unusableFile(unusableFile)
    }
    guard todos != shownList || shownProblem != nil else { return nil }
    shownList = todos
    return .list(todos)
  }
}
