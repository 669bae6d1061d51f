extension Int {
  /// Reads a positive integer typed on the command line, such as an amount or a number.
  ///
  /// ```swift
  /// try Int(positiveArgument: "-3", meaning: "The amount to add", example: 5)
  /// // UsageError: The amount to add must be a positive integer, such as 5; '-3' is not.
  /// ```
  ///
  /// - Parameters:
  ///   - text: The word typed.
  ///   - meaning: What the number is, as the subject of a sentence: `A todo number`.
  ///   - example: A valid number, shown in the error.
  /// - Throws: A ``UsageError`` saying that the number must be positive, for zero, a negative
  ///   number or a word that is no number.
  public init(positiveArgument text: String, meaning: String, example: Int) throws(UsageError) {
    guard let number = Int(text), number > 0 else {
      throw UsageError(
        "\(meaning) must be a positive integer, such as \(example); '\(text)' is not."
      )
    }
    self = number
  }
}
