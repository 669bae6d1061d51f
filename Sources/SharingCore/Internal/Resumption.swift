import SharingDependencies
import Synchronization

/// Delivers the result of a continuation exactly once, whatever the caller does.
final class Resumption<Result>: Sendable {
  private let name: String
  private let description: @Sendable () -> String
  private let fallback: @Sendable () -> Result
  private let callback: Mutex<(@Sendable (Result) -> Void)?>

  init(
    name: String,
    description: @escaping @Sendable () -> String,
    fallback: @autoclosure @escaping @Sendable () -> Result,
    callback: @escaping @Sendable (Result) -> Void
  ) {
    self.name = name
    self.description = description
    self.fallback = fallback
    self.callback = Mutex(callback)
  }

  deinit {
    guard let callback = takeCallback() else { return }
    reportIssue(
      """
      A '\(name)' for \(description()) was released without being resumed. Resume it \
      exactly once; whatever waits on it continues now.
      """
    )
    callback(fallback())
  }

  func resume(with result: Result) {
    guard let callback = takeCallback() else {
      reportIssue(
        "A '\(name)' for \(description()) was resumed more than once; the extra result is ignored."
      )
      return
    }
    callback(result)
  }

  private func takeCallback() -> (@Sendable (Result) -> Void)? {
    callback.withLock { callback in
      defer { callback = nil }
      return callback
    }
  }
}
