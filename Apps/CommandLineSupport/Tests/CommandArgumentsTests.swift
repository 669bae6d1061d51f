import CommandLineSupport
import Testing

@Suite struct CommandArgumentsTests {
  private struct GreetArguments: CommandArguments, Equatable {
    static let usage = "Usage: greet [--name <name>]"
    static let options = ["--name": "a name"]
    var name: String

    init(_ arguments: ArgumentList) throws(UsageError) {
      try arguments.expectNoOperands()
      name = arguments.value(of: "--name") ?? "world"
    }
  }

  @Test func parsingAppliesTheCommandsOptions() throws {
    #expect(try GreetArguments.parse(["--name", "Blob"])?.name == "Blob")
    #expect(try GreetArguments.parse([])?.name == "world")
  }

  @Test func helpParsesAsNothingToRun() throws {
    #expect(try GreetArguments.parse(["--name", "Blob", "--help"]) == nil)
  }

  @Test func commandsOwnErrorsComeThrough() {
    let error = #expect(throws: UsageError.self) { try GreetArguments.parse(["Blob"]) }
    #expect(error?.description == "Unexpected argument 'Blob'.")
  }
}
