/// One item of the todo list.
public struct Todo: Codable, Equatable, Identifiable, Sendable {
  /// A small number, unique in its list, that the user types to name the todo.
  public let id: Int
  /// What to do.
  public var title: String
  /// Whether it is done.
  public var isDone: Bool

  /// Creates a todo.
  ///
  /// - Parameters:
  ///   - id: The number that names it in its list.
  ///   - title: What to do.
  ///   - isDone: Whether it is done.
  public init(id: Int, title: String, isDone: Bool = false) {
    self.id = id
    self.title = title
    self.isDone = isDone
  }
}
