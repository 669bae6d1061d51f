import CommandLineSupport
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
  ])
  func commandsAreRecognised(arguments: [String], command: TodosArguments.Command) throws {
    #expect(try TodosArguments.parse(arguments)?.command == command)
  }

  @Test func helpIsRecognisedAfterACommand() throws {
    #expect(try TodosArguments.parse(["watch", "--help"]) == nil)
  }

  @Test func fileIsAcceptedBeforeOrAfterTheCommand() throws {
    #expect(try TodosArguments.parse(["--file", "a.json", "list"])?.filePath == "a.json")
    #expect(try TodosArguments.parse(["list", "--file=b.json"])?.filePath == "b.json")
  }

  @Test(arguments: [
    (["add"], "'add' needs a title, or '-'."),
    (["add", ""], "'add' needs a title that is not blank."),
    (["add", " ", "  "], "'add' needs a title that is not blank."),
    (["done"], "'done' needs one todo number."),
    (["rm", "1", "2"], "'rm' needs one todo number."),
    (["done", "first"], "A todo number must be a positive integer, such as 3; 'first' is not."),
    (["done", "0"], "A todo number must be a positive integer, such as 3; '0' is not."),
    (["done", "-1"], "A todo number must be a positive integer, such as 3; '-1' is not."),
    (["watch", "now"], "'watch' takes no arguments."),
    (["archive"], "Unknown command 'archive'."),
    (["--all"], "Unknown option '--all'."),
    (["--file"], "'--file' needs a path."),
  ])
  func badCommandLinesAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try TodosArguments.parse(arguments) }
    #expect(error?.description == message)
  }
}
