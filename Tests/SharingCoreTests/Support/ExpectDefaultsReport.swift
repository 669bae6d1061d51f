import Testing

/// Runs `body`, which declares a key with a second, different default: debug builds report
/// it, release builds do not check defaults (it would mean evaluating every later default).
func expectDefaultsReport(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () -> Void,
  matching matcher: @escaping KnownIssueMatcher = {
    $0.description.contains("is used with two defaults")
  }
) {
  #if DEBUG
    withKnownIssue(sourceLocation: sourceLocation, body, matching: matcher)
  #else
    body()
  #endif
}
