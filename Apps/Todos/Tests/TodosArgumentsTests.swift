import Testing
import TodosKit

@Suite struct TodosArgumentsTests {
  @Test(arguments: [
    ([], TodosArguments.Command.list),
    (["list"], .list),
    (["add", "Buy", "milk"], .add(title: "Buy milk")),
    (["add", "--", "--verbose", "mode"], .add(title: "--verbose mode")),
    (["add", "-"], .addFromInput),
    (["done", "3"], .complete(3)),
    (["done", "#3"], .complete(3)),
    (["rm", "12"], .remove(12)),
    (["watch"], .watch),
    (["demo"], .demo),
    (["watch", "--help"], .help),
  ])
  func commandsAreRecognised(arguments: [String], command: TodosArguments.Command) throws {
    #expect(try TodosArguments(parsing: arguments).command == command)
  }

  @Test func fileIsAcceptedBeforeOrAfterTheCommand() throws {
    #expect(try TodosArguments(parsing: ["--file", "a.json", "list"]).filePath == "a.json")
    #expect(try TodosArguments(parsing: ["list", "--file=b.json"]).filePath == "b.json")
  }

  @Test(arguments: [
    (["add"], "'add' needs a title, or '-'."),
    (["done"], "'done' needs one todo number."),
    (["rm", "1", "2"], "'rm' needs one todo number."),
    (["done", "first"], "'first' is not a todo number."),
    (["done", "0"], "'0' is not a todo number."),
    (["watch", "now"], "'watch' takes no arguments."),
    (["archive"], "Unknown command 'archive'."),
    (["--all"], "Unknown option '--all'."),
    (["--file"], "'--file' needs a path."),
  ])
  func badCommandLinesAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try TodosArguments(parsing: arguments) }
    #expect(error?.description == message)
  }
}
