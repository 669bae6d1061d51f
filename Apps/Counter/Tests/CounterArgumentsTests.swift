import CounterKit
import Testing

@Suite struct CounterArgumentsTests {
  @Test(arguments: [
    ([], CounterArguments.Command.show),
    (["increment"], .increment(by: 1)),
    (["increment", "42"], .increment(by: 42)),
    (["reset"], .reset),
    (["--help"], .help),
    (["reset", "-h"], .help),
  ])
  func commandsAreRecognised(arguments: [String], command: CounterArguments.Command) throws {
    #expect(try CounterArguments(parsing: arguments).command == command)
  }

  @Test func storeIsAcceptedBeforeOrAfterTheCommand() throws {
    #expect(try CounterArguments(parsing: ["--store", "a.plist", "reset"]).storePath == "a.plist")
    #expect(try CounterArguments(parsing: ["reset", "--store=b.plist"]).storePath == "b.plist")
  }

  @Test(arguments: [
    (["increment", "0"], "'0' is not a positive integer."),
    (["increment", "many"], "'many' is not a positive integer."),
    (["increment", "1", "2"], "Too many arguments for 'increment'."),
    (["decrement"], "Unknown command 'decrement'."),
    (["--verbose"], "Unknown option '--verbose'."),
    (["--store"], "'--store' needs a path."),
  ])
  func badCommandLinesAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try CounterArguments(parsing: arguments) }
    #expect(error?.description == message)
  }
}
