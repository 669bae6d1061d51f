import CommandLineSupport
import Testing

@Suite struct ArgumentListTests {
  private let options = ["--file": "a path"]

  @Test func optionsTakeTheirValueBeforeOrAfterOperands() throws {
    let spaced = try ArgumentList(["--file", "a.json", "add", "milk"], options: options)
    let joined = try ArgumentList(["add", "--file=b.json", "milk"], options: options)
    #expect(spaced.value(of: "--file") == "a.json")
    #expect(spaced.operands == ["add", "milk"])
    #expect(joined.value(of: "--file") == "b.json")
    #expect(joined.operands == ["add", "milk"])
  }

  @Test func lastValueOfARepeatedOptionCounts() throws {
    let list = try ArgumentList(["--file", "a", "--file=b"], options: options)
    #expect(list.value(of: "--file") == "b")
  }

  @Test func helpStopsReadingTheLine() throws {
    let list = try ArgumentList(["add", "-h", "--unknown"], options: options)
    #expect(list.isHelpRequested)
    #expect(try ArgumentList(["--help"]).isHelpRequested)
    #expect(try !ArgumentList(["add"]).isHelpRequested)
  }

  @Test func doubleDashMakesEveryLaterWordAnOperand() throws {
    let list = try ArgumentList(["add", "--", "--file", "-h"], options: options)
    #expect(list.operands == ["add", "--file", "-h"])
    #expect(list.value(of: "--file") == nil)
    #expect(!list.isHelpRequested)
  }

  @Test func dashAndNegativeNumbersAreOperands() throws {
    #expect(try ArgumentList(["done", "-1"]).operands == ["done", "-1"])
    #expect(try ArgumentList(["add", "-"]).operands == ["add", "-"])
    #expect(try ArgumentList(["-0.5"]).operands == ["-0.5"])
  }

  @Test(arguments: [
    (["--verbose"], "Unknown option '--verbose'."),
    (["-x"], "Unknown option '-x'."),
    (["--files=a"], "Unknown option '--files=a'."),
    (["--file"], "'--file' needs a path."),
  ])
  func badWordsAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) {
      try ArgumentList(arguments, options: options)
    }
    #expect(error?.description == message)
  }

  @Test func unexpectedOperandIsNamed() throws {
    let error = #expect(throws: UsageError.self) {
      try ArgumentList(["now", "later"]).expectNoOperands()
    }
    #expect(error?.description == "Unexpected argument 'now'.")
    try ArgumentList([]).expectNoOperands()
  }
}
