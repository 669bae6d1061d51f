import SharingDependencies

/// The error a timed-out ``withWatchdog(seconds:fileID:filePath:line:column:_:)`` throws.
public struct Deadlock: Error {}

/// Runs an operation, failing the test with "deadlock" instead of hanging past a bound.
///
/// Unlike a task group, it does not wait for an operation stuck on a lock: it reports the
/// failure and throws ``Deadlock``, leaving the stuck operation behind.
///
/// The bound is `seconds` in which the task pool ran the watchdog, not seconds of the clock:
/// while other work holds every thread of the pool (a long synchronous test, the tasks of a
/// stress test, or a machine too busy to run them), the operation cannot run either, and a
/// clock would find it overdue the moment the pool is free again.
public func withWatchdog<R: Sendable>(
  seconds: Int = 60,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
  let finished = Locked(false)
  let timer = Locked<Task<Void, Never>?>(nil)
  let result: Result<R, any Error>? = await withCheckedContinuation { continuation in
    let resume = { @Sendable (result: Result<R, any Error>?) in
      let isFirst = finished.withLock { done in
        defer { done = true }
        return !done
      }
      if isFirst { continuation.resume(returning: result) }
    }
    timer.withLock {
      $0 = Task {
        for _ in 0..<seconds {
          try? await Task.sleep(for: .seconds(1))
          if Task.isCancelled { return }
        }
        resume(nil)
      }
    }
    Task {
      do {
        resume(.success(try await operation()))
      } catch {
        resume(.failure(error))
      }
    }
  }
  timer.withLock { $0?.cancel() }
  guard let result else {
    reportIssue(
      "deadlock: the operation did not finish within \(seconds)s",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
    throw Deadlock()
  }
  return try result.get()
}
