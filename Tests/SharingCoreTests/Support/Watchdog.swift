import Testing

/// Runs an operation, failing the test with "deadlock" instead of hanging past a bound.
func withWatchdog<R: Sendable>(
  seconds: Int = 30,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await withThrowingTaskGroup(of: R?.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    defer { group.cancelAll() }
    guard let result = try await group.next(), let result else {
      Issue.record(
        "deadlock: the operation did not finish within \(seconds)s",
        sourceLocation: sourceLocation
      )
      throw CancellationError()
    }
    return result
  }
}
