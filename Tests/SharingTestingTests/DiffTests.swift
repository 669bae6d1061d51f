import SharingTesting
import Testing

@Suite struct DiffTests {
  @Test func equalValuesHaveNoDiff() {
    #expect(diff(Todo(title: "Milk"), Todo(title: "Milk")) == nil)
    #expect(diff([1, 2], [1, 2]) == nil)
  }

  @Test func unequalValuesThatDumpAlikeHaveNoDiff() {
    #expect(Clock(hidden: 1) != Clock(hidden: 2))
    #expect(diff(Clock(hidden: 1), Clock(hidden: 2)) == nil)
  }

  @Test func changedScalarField() {
    #expect(
      diff(Todo(title: "Milk"), Todo(title: "Milk", isDone: true)) == """
          Todo(
            title: "Milk",
        -   isDone: false
        +   isDone: true
          )
        """
    )
  }

  @Test func defaultMarkersAreASCIIAsInSwiftCustomDump() {
    #expect(diff(1, 2) == "- 1\n+ 2")
    #expect(DiffFormat.default == DiffFormat(first: "-", second: "+", both: " "))
    #expect(DiffFormat.proportional == DiffFormat(first: "\u{2212}", second: "+", both: "\u{2007}"))
  }

  @Test func scalars() {
    #expect(diff(1, 2) == "- 1\n+ 2")
    #expect(diff("a", "b", format: .plain) == "- \"a\"\n+ \"b\"")
  }

  @Test func nestedChangeCollapsesUnchangedSiblings() {
    let before = Profile(name: "Blob", todos: [Todo(title: "Milk")], settings: Settings())
    var after = before
    after.settings.theme = .dark
    #expect(
      diff(before, after) == """
          Profile(
            name: "Blob",
            todos: […],
            settings: Settings(
        -     theme: .light,
        +     theme: .dark,
              notifications: Notifications(…)
            )
          )
        """
    )
  }

  @Test func arrayElementChanged() {
    let todos = [
      Todo(title: "Milk"), Todo(title: "Eggs"), Todo(title: "Bread"), Todo(title: "Jam"),
    ]
    var changed = todos
    changed[1].isDone = true
    #expect(
      diff(todos, changed) == """
          [
            [0]: Todo(…),
            [1]: Todo(
              title: "Eggs",
        -     isDone: false
        +     isDone: true
            ),
            … (2 unchanged)
          ]
        """
    )
  }

  @Test func arrayElementInserted() {
    #expect(
      diff(["a", "b", "c"], ["a", "x", "b", "c"]) == """
          [
            [0]: "a",
        +   [1]: "x",
            … (2 unchanged)
          ]
        """
    )
  }

  @Test func arrayElementRemoved() {
    #expect(
      diff([Todo(title: "Milk"), Todo(title: "Eggs")], [Todo(title: "Eggs")]) == """
          [
        -   [0]: Todo(
        -     title: "Milk",
        -     isDone: false
        -   ),
            [0]: Todo(…)
          ]
        """
    )
  }

  @Test func arrayElementAppended() {
    #expect(
      diff([1, 2, 3], [1, 2, 3, 4]) == """
          [
            … (3 unchanged),
        +   [3]: 4
          ]
        """
    )
  }

  @Test func emptyArrays() {
    #expect(diff([Int](), [1]) == "- []\n+ [\n+   [0]: 1\n+ ]")
  }

  @Test func longArrayChangesShowBeyondTheDumpLimit() {
    var numbers = Array(0..<100)
    numbers[80] = -1
    #expect(
      diff(Array(0..<100), numbers) == """
          [
            … (80 unchanged),
        -   [80]: 80,
        +   [80]: -1,
            … (19 unchanged)
          ]
        """
    )
  }

  @Test func dictionaryKeyAdded() {
    #expect(
      diff(["a": 1, "c": 3], ["a": 1, "b": 2, "c": 3]) == """
          [
            "a": 1,
        +   "b": 2,
            "c": 3
          ]
        """
    )
  }

  @Test func dictionaryValueChanged() {
    #expect(
      diff(["a": Todo(title: "Milk")], ["a": Todo(title: "Milk", isDone: true)]) == """
          [
            "a": Todo(
              title: "Milk",
        -     isDone: false
        +     isDone: true
            )
          ]
        """
    )
  }

  @Test func setElementReplaced() {
    #expect(
      diff(Set([1, 2, 3]), Set([1, 3, 4])) == """
          Set([
            1,
        -   2,
            3,
        +   4
          ])
        """
    )
  }

  @Test func enumCaseChanged() {
    #expect(diff(Theme.light, Theme.dark) == "- Theme.light\n+ Theme.dark")
    #expect(
      diff(Request.loaded(Todo(title: "Milk")), Request.failed(code: 404)) == """
        - Request.loaded(
        -   Todo(
        -     title: "Milk",
        -     isDone: false
        -   )
        - )
        + Request.failed(code: 404)
        """
    )
  }

  @Test func enumPayloadChanged() {
    #expect(
      diff(Request.loaded(Todo(title: "Milk")), Request.loaded(Todo(title: "Eggs"))) == """
          Request.loaded(
            Todo(
        -     title: "Milk",
        +     title: "Eggs",
              isDone: false
            )
          )
        """
    )
  }

  @Test func multiLineStringsDiffByLine() {
    #expect(
      diff(Note(body: "Hello\nWorld"), Note(body: "Hello\nThere")) == #"""
          Note(
            body: """
            Hello
        -   World
        +   There
            """
          )
        """#
    )
    #expect(diff("Hello\nWorld", "Hello\nThere") == "  \"\"\"\n  Hello\n- World\n+ There\n  \"\"\"")
  }

  @Test func plainFormat() {
    #expect(
      diff(Todo(title: "Milk"), Todo(title: "Eggs"), format: .plain) == """
          Todo(
        -   title: "Milk",
        +   title: "Eggs",
            isDone: false
          )
        """
    )
  }
}

// MARK: - Fixtures

private struct Todo: Equatable {
  var title: String
  var isDone = false
}

private enum Theme {
  case light
  case dark
}

private struct Notifications {
  var isEnabled = true
  var hour = 9
}

private struct Settings {
  var theme = Theme.light
  var notifications = Notifications()
}

private struct Profile {
  var name: String
  var todos: [Todo]
  var settings: Settings
}

private enum Request {
  case loaded(Todo)
  case failed(code: Int)
}

private struct Note {
  var body: String
}

/// Equality that looks at state the dump does not show.
private struct Clock: Equatable, CustomDumpReflectable {
  var hidden: Int
  var customDumpMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
