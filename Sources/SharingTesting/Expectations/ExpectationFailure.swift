/// The failure messages of ``expectNoDifference(_:_:_:fileID:filePath:line:column:)`` and
/// ``expectDifference(_:_:operation:changes:fileID:filePath:line:column:)``.
enum ExpectationFailure {
  /// `expectNoDifference failed: …` followed by a diff.
  static func noDifference<T: Equatable>(_ expected: T, _ actual: T, message: String?) -> String? {
    failure(
      expected,
      actual,
      message,
      title: "expectNoDifference failed",
      function: "expectNoDifference"
    )
  }

  /// `Difference: …` followed by a diff.
  static func difference<T: Equatable>(_ expected: T, _ actual: T, message: String?) -> String? {
    failure(expected, actual, message, title: "Difference", function: "expectDifference")
  }

  private static func failure<T: Equatable>(
    _ expected: T,
    _ actual: T,
    _ message: String?,
    title: String,
    function: String
  ) -> String? {
    guard expected != actual else { return nil }
    let prefix = message.flatMap { $0.isEmpty ? nil : "\($0) - " } ?? ""
    let format = DiffFormat.default
    guard let difference = diff(expected, actual, format: format) else {
      return """
        \(prefix)\(function) failed: Values are not equal, but no difference was detected in \
        their dumps.

        \(indented(String(customDumping: actual)))
        """
    }
    return """
      \(prefix)\(title): …

      \(indented(difference))

      (Expected: \(format.first), Actual: \(format.second))
      """
  }

  private static func indented(_ text: String) -> String {
    text.lineFeedSeparated.map(\.indented).joined(separator: "\n")
  }
}
