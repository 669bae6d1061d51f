import CommandLineSupport
import CounterKit
import Testing

@Suite struct CounterArgumentsTests {
  @Test(arguments: [
    ([], CounterArguments.Command.show),
    (["increment"], .increment(by: 1)),
    (["increment", "42"], .increment(by: 42)),
    (["reset"], .reset),
  ])
  func commandsAreRecognised(arguments: [String], command: CounterArguments.Command) throws {
    #expect(try CounterArguments.parse(arguments)?.command == command)
  }

  @Test func helpIsRecognisedAfterACommand() throws {
    #expect(try CounterArguments.parse(["--help"]) == nil)
    #expect(try CounterArguments.parse(["reset", "-h"]) == nil)
  }

  @Test func storeIsAcceptedBeforeOrAfterTheCommand() throws {
    #expect(try CounterArguments.parse(["--store", "a.plist", "reset"])?.storePath == "a.plist")
    #expect(try CounterArguments.parse(["reset", "--store=b.plist"])?.storePath == "b.plist")
  }

  @Test(arguments: [
    (["increment", "-3"], "The amount to add must be a positive integer, such as 5; '-3' is not."),
    (["increment", "0"], "The amount to add must be a positive integer, such as 5; '0' is not."),
    (
      ["increment", "many"],
      "The amount to add must be a positive integer, such as 5; 'many' is not."
    ),
    (["increment", "1", "2"], "Too many arguments for 'increment'."),
    (["decrement"], "Unknown command 'decrement'."),
    (["--verbose"], "Unknown option '--verbose'."),
    (["--store"], "'--store' needs a path."),
  ])
  func badCommandLinesAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try CounterArguments.parse(arguments) }
    #expect(error?.description == message)
  }
}
