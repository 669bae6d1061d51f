import CommandLineSupport
import FlagsKit
import Testing

@Suite struct FlagsArgumentsTests {
  @Test func noCommandLists() throws {
    #expect(try FlagsArguments.parse([])?.command == .list)
  }

  @Test func setTakesANameAndOnOrOff() throws {
    #expect(try FlagsArguments.parse(["set", "beta", "on"])?.command == .set("beta", isOn: true))
    #expect(try FlagsArguments.parse(["set", "beta", "off"])?.command == .set("beta", isOn: false))
  }

  @Test func optionsNameTheDatabaseAndTable() throws {
    let arguments = try FlagsArguments.parse(
      ["--database", "host=/tmp/pg", "watch", "--table=flags"]
    )
    #expect(arguments?.command == .watch)
    #expect(arguments?.connectionString == "host=/tmp/pg")
    #expect(arguments?.table == "flags")
  }

  @Test func resetTakesNoArguments() throws {
    #expect(try FlagsArguments.parse(["reset"])?.command == .reset)
    #expect(throws: UsageError("Too many arguments for 'reset'.")) {
      try FlagsArguments.parse(["reset", "beta"])
    }
  }

  @Test(arguments: ["flags", "app.flags_2", "_x"])
  func tableNameOfLettersDigitsAndUnderscoresIsTaken(name: String) throws {
    #expect(try FlagsArguments.parse(["--table", name])?.table == name)
  }

  @Test(arguments: ["bad table; drop", "a.b.c", "2flags", "", "a.", "flägs"])
  func otherTableNameIsAUsageError(name: String) {
    #expect(
      throws: UsageError(
        "'\(name)' is not a table name: use letters, digits and underscores, as name or"
          + " schema.name."
      )
    ) {
      try FlagsArguments.parse(["--table", name])
    }
  }

  @Test func helpIsNoCommand() throws {
    #expect(try FlagsArguments.parse(["set", "--help"]) == nil)
  }

  @Test func badCommandLinesAreExplained() {
    #expect(throws: UsageError("'yes' is neither 'on' nor 'off'.")) {
      try FlagsArguments.parse(["set", "beta", "yes"])
    }
    #expect(throws: UsageError("'set' needs a name and 'on' or 'off'.")) {
      try FlagsArguments.parse(["set", "beta"])
    }
    #expect(throws: UsageError("Too many arguments for 'list'.")) {
      try FlagsArguments.parse(["list", "all"])
    }
    #expect(throws: UsageError("'--database' needs a connection string.")) {
      try FlagsArguments.parse(["--database"])
    }
    #expect(throws: UsageError("Unknown option '--verbose'.")) {
      try FlagsArguments.parse(["--verbose"])
    }
    #expect(throws: UsageError("Unknown command 'toggle'.")) {
      try FlagsArguments.parse(["toggle"])
    }
  }
}
