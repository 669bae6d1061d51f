import FlagsKit
import Testing

@Suite struct FlagsArgumentsTests {
  @Test func noCommandLists() throws {
    #expect(try FlagsArguments(parsing: []).command == .list)
  }

  @Test func setTakesANameAndOnOrOff() throws {
    #expect(try FlagsArguments(parsing: ["set", "beta", "on"]).command == .set("beta", isOn: true))
    #expect(
      try FlagsArguments(parsing: ["set", "beta", "off"]).command == .set("beta", isOn: false)
    )
  }

  @Test func optionsNameTheDatabaseAndTable() throws {
    let arguments = try FlagsArguments(
      parsing: ["--database", "host=/tmp/pg", "watch", "--table", "flags"]
    )
    #expect(arguments.command == .watch)
    #expect(arguments.connectionString == "host=/tmp/pg")
    #expect(arguments.table == "flags")
  }

  @Test func badCommandLinesAreExplained() {
    #expect(throws: UsageError.self) { try FlagsArguments(parsing: ["set", "beta", "yes"]) }
    #expect(throws: UsageError.self) { try FlagsArguments(parsing: ["set", "beta"]) }
    #expect(throws: UsageError.self) { try FlagsArguments(parsing: ["list", "all"]) }
    #expect(throws: UsageError.self) { try FlagsArguments(parsing: ["--database"]) }
    #expect(throws: UsageError.self) { try FlagsArguments(parsing: ["--verbose"]) }
    #expect(throws: UsageError.self) { try FlagsArguments(parsing: ["toggle"]) }
  }
}
