import CommandLineSupport
import Testing

@Suite struct PositiveArgumentTests {
  @Test func positiveIntegerIsRead() throws {
    #expect(try Int(positiveArgument: "12", meaning: "A number", example: 3) == 12)
  }

  @Test(arguments: ["-3", "0", "three", "", "1.5"])
  func anythingElseIsExplainedAsNotPositive(text: String) {
    let error = #expect(throws: UsageError.self) {
      try Int(positiveArgument: text, meaning: "The amount to add", example: 5)
    }
    #expect(
      error?.description
        == "The amount to add must be a positive integer, such as 5; '\(text)' is not."
    )
  }
}
