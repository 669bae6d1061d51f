/// The failure messages of ``expectNoDifference(_:_:_:fileID:filePath:line:column:)`` and
/// ``expectDifference(_:_:operation:changes:fileID:filePath:line:column:)``.
enum ExpectationFailure {
  /// `expectNoDifference failed: …` followed by a diff.
  static func noDifference(_ comparison: DumpComparison, message: String?) -> String? {
    failure(comparison, message, title: "expectNoDifference failed", function: "expectNoDifference")
  }

  /// `Difference: …` followed by a diff.
  static func difference(_ comparison: DumpComparison, message: String?) -> String? {
    failure(comparison, message, title: "Difference", function: "expectDifference")
  }

  private static func failure(
    _ comparison: DumpComparison,
    _ message: String?,
    title: String,
    function: String
  ) -> String? {
    guard !comparison.isEqual else { return nil }
    let prefix = message.flatMap { $0.isEmpty ? nil : "\($0) - " } ?? ""
    return comparison.message(
      title: "\(prefix)\(title)",
      undetected: """
        \(prefix)\(function) failed: Values are not equal, but no difference was detected in \
        their dumps.
        """
    )
  }
}
