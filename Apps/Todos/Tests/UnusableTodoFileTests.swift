import Foundation
import Testing
import TodosKit

/// The line `todos` prints for a file it cannot use, for the errors a corrupt file gives.
@Suite struct UnusableTodoFileTests {
  private let file = URL(fileURLWithPath: "/tmp/todos.json")

  @Test(arguments: [
    ("{not json", "it is not valid JSON"),
    ("", "it is not valid JSON"),
    (#"{"title": "Milk"}"#, #"it is not a todo list (the file has no "todos")"#),
    (#""Milk""#, "it is not a todo list (the file is not an object)"),
    (#"{"todos": 1}"#, #"it is not a todo list ("todos" is not an array)"#),
    (#"{"nextID": "2", "todos": []}"#, #"it is not a todo list ("nextID" is not a whole number)"#),
    (#"{"nextID": 2, "todos": [{"id": 1}]}"#, #"it is not a todo list (todo 1 has no "title")"#),
    (#"[{"id": 1}]"#, #"it is not a todo list (todo 1 has no "title")"#),
    ("[1]", "it is not a todo list (todo 1 is not an object)"),
    (
      #"[{"id": 1, "title": "A", "isDone": false}, {"id": "2", "title": "B", "isDone": false}]"#,
      #"it is not a todo list (the "id" of todo 2 is not a whole number)"#
    ),
    (
      #"[{"id": 1, "title": null, "isDone": false}]"#,
      #"it is not a todo list (the "title" of todo 1 is not a string)"#
    ),
  ])
  func decodingErrorSaysWhatIsWrongInTheFile(contents: String, reason: String) throws {
    let error = try #require(throws: DecodingError.self) {
      try JSONDecoder().decode(TodoFileContents.self, from: Data(contents.utf8))
    }
    #expect(UnusableTodoFile(file: file, loadError: error).reason == reason)
  }

  @Test func lineNamesTheFileAndSaysItWasLeftUntouched() {
    let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Bad"))
    #expect(
      "\(UnusableTodoFile(file: file, loadError: error))"
        == "Cannot use /tmp/todos.json: it is not valid JSON. The file was left untouched."
    )
  }

  @Test func systemErrorIsDescribedInWords() {
    let unusable = UnusableTodoFile(file: file, loadError: POSIXError(.EACCES))
    #expect(unusable.reason == "permission denied")
  }
}
