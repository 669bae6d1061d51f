import SharingCore

extension Shared where Value: Sendable {
  /// Waits for the value to satisfy a condition: now, or after changes made by anyone,
  /// including another program writing the file the value is stored in.
  ///
  /// - Parameters:
  ///   - condition: The condition to wait for.
  ///   - timeout: How long to wait.
  /// - Returns: The first value that satisfies `condition`, or `nil` if none did in time.
  func firstValue(
    where condition: @escaping @Sendable (Value) -> Bool,
    timeout: Duration
  ) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
      group.addTask {
        // NB: 'values' starts with the current value, so a change made before this task
        //     runs is not missed.
        for await value in values where condition(value) { return value }
        return nil
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      return await group.next() ?? nil
    }
  }
}
