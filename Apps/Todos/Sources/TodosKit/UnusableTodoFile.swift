import CommandLineSupport
public import Foundation

/// A todo file the list could not be read from, told in one line: which file, what is wrong
/// with it, and that it was left as it is.
///
/// ```swift
/// if let error = list.loadError {
///   print(UnusableTodoFile(file: list.file, loadError: error))
///   // Cannot use /home/blob/todos.json: it is not valid JSON. The file was left untouched.
/// }
/// ```
public struct UnusableTodoFile: Error, Equatable, CustomStringConvertible {
  /// The file.
  public let file: URL
  /// What is wrong with it, such as `it is not valid JSON`.
  public let reason: String

  /// Describes the error a todo list failed to load with.
  ///
  /// - Parameters:
  ///   - file: The file the list is kept in.
  ///   - loadError: The list's `loadError`.
  public init(file: URL, loadError: any Error) {
    self.file = file
    if let error = loadError as? DecodingError {
      reason = Self.reason(for: error)
    } else {
      reason = FileProblem.reason(for: loadError, at: file)
    }
  }

  /// The line for the user.
  public var description: String {
    "Cannot use \(file.path): \(reason). The file was left untouched."
  }

  private static func reason(for error: DecodingError) -> String {
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "it is not valid JSON"
    case .keyNotFound(let key, let context):
      return "it is not a todo list (\(place(context.codingPath)) has no \"\(key.stringValue)\")"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "it is not a todo list (\(place(context.codingPath)) is not \(kind(of: type)))"
    case .dataCorrupted(let context):
      return "it is not a todo list (\(place(context.codingPath)) is not valid)"
    @unknown default:
      return "it is not a todo list"
    }
  }

  /// Where in the file a value is: `the file`, `"nextID"`, `todo 2`, or
  /// `the "title" of todo 2`, whether the todos are in `"todos"` or the file is their array.
  private static func place(_ path: [any CodingKey]) -> String {
    var path = path[...]
    if path.count > 1, path.first?.stringValue == "todos" { path = path.dropFirst() }
    guard let first = path.first else { return "the file" }
    guard let index = first.intValue else { return "\"\(first.stringValue)\"" }
    guard let last = path.last, path.count > 1 else { return "todo \(index + 1)" }
    return "the \"\(last.stringValue)\" of todo \(index + 1)"
  }

  private static func kind(of type: Any.Type) -> String {
    switch type {
    case is Int.Type: "a whole number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is [String: Any].Type: "an object"
    case is [Any].Type: "an array"
    default: "a \(type)"
    }
  }
}
