import Foundation
import Testing
import TodosKit

@Suite struct TodosFileTests {
  @Test func fileOptionWinsOverTheEnvironment() {
    let url = TodosFile.url(path: "/tmp/a.json", environment: ["TODOS_FILE": "/tmp/b.json"])
    #expect(url.path == "/tmp/a.json")
  }

  @Test func environmentWinsOverTheDefault() {
    #expect(
      TodosFile.url(path: nil, environment: ["TODOS_FILE": "/tmp/b.json"]).path == "/tmp/b.json"
    )
  }

  @Test func defaultIsInTheUsersDataDirectory() {
    let url = TodosFile.url(path: nil, environment: ["TODOS_FILE": ""])
    #expect(url == TodosFile.defaultURL)
    #expect(url.path.hasSuffix("/todos/todos.json"))
  }

  @Test func relativePathBecomesAbsolute() {
    let url = TodosFile.url(path: "lists/todos.json", environment: [:])
    #expect(url.path.hasPrefix("/"))
    #expect(url.path.hasSuffix("/lists/todos.json"))
  }
}
