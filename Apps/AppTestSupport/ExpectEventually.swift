public import Testing

/// Waits until a condition holds, checking every few milliseconds; records an issue if it
/// does not within `timeout`.
///
/// ```swift
/// await expectEventually("the new reading") { uptime?.seconds == 90 }
/// ```
///
/// - Parameters:
///   - description: What is awaited, for the failure message.
///   - timeout: How long to wait: generous, as the condition usually holds in milliseconds.
///   - condition: The condition.
/// - Returns: Whether the condition held in time.
@discardableResult
public func expectEventually(
  _ description: String,
  timeout: Duration = .seconds(30),
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("Timed out waiting for \(description)", sourceLocation: sourceLocation)
      return false
    }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return true
}
