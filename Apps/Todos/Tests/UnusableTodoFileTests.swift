import Foundation
import Testing
import TodosKit

/// The line `todos` prints for a file it cannot use, for the errors a corrupt file gives.
@Suite struct UnusableTodoFileTests {
  private let file = URL(fileURLWithPath: "/tmp/todos.json")

  @Test(arguments: [
    ("{not json", "it is not valid JSON"),
    ("", "it is not valid JSON"),
    (#"{"title": "Milk"}"#, "it is not a JSON array of todos"),
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
      try JSONDecoder().decode([Todo].self, from: Data(contents.utf8))
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
