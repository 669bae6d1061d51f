import SharingCore

/// An expected and an actual value compared for a failure message: whether they are equal,
/// and their dumps.
///
/// When a change tracker is given, the expected value is compared and dumped inside the
/// tracker's assertion, where shared values read their snapshots (the "before" value with
/// the expected changes applied), and the actual value is dumped outside it, where they read
/// their current values.
struct DumpComparison {
  let isEqual: Bool
  let expected: DumpNode
  let actual: DumpNode

  init<T: Equatable>(expected: T, actual: T, tracker: ChangeTracker? = nil) {
    self.init(expected: expected, actual: actual, tracker: tracker) { expected == actual }
  }

  /// Compares the values with `isEqual`, or by their dumps when it returns `nil`.
  init(expected: Any, actual: Any, tracker: ChangeTracker?, isEqual: () -> Bool?) {
    func compareExpected() -> (Bool?, DumpNode) { (isEqual(), Dumper.node(for: expected)) }
    // Inside the assertion, `Shared ==` compares the left-hand side's snapshot with the
    // right-hand side's current value, which is exactly "expected == actual". Without a
    // tracker, inside an assertion the caller runs, compared and dumped as `==` compares.
    let (isEqual, expectedNode) = tracker?.assert(compareExpected) ?? compareExpected()
    let actualNode = ChangeTracker.withoutAsserting { Dumper.node(for: actual) }
    self.isEqual = isEqual ?? (expectedNode == actualNode)
    self.expected = expectedNode
    self.actual = actualNode
  }

  /// A failure message: `title: …`, the diff and its legend; or, when the dumps are equal,
  /// `undetected` followed by the actual dump.
  func message(title: String, undetected: String) -> String {
    let format = DiffFormat.failureMessage
    guard let difference = NodeDiff.lines(expected, actual, format: format) else {
      return """
        \(undetected)

        \(Self.indented(actual.lines))
        """
    }
    return """
      \(title): …

      \(Self.indented(difference))

      (Expected: \(format.first), Actual: \(format.second))
      """
  }

  /// The failure message of the expectation `function` that the values are equal, `nil` if
  /// they are: `title` (by default `<function> failed`) after `message`.
  func failure(of function: String, title: String? = nil, _ message: String?) -> String? {
    guard !isEqual else { return nil }
    let prefix = message.flatMap { $0.isEmpty ? nil : "\($0) - " } ?? ""
    return self.message(
      title: prefix + (title ?? "\(function) failed"),
      undetected: """
        \(prefix)\(function) failed: Values are not equal, but no difference was detected in \
        their dumps.
        """
    )
  }

  private static func indented(_ lines: [String]) -> String {
    lines.map(\.indented).joined(separator: "\n")
  }
}
