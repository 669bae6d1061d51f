import SharingDependencies
import Synchronization

/// Delivers the result of a continuation exactly once, whatever the caller does.
final class Resumption<Result>: Sendable {
  private let name: String
  private let description: @Sendable () -> String
  private let fallback: @Sendable () -> Result
  private let callback: @Sendable (Result) -> Void
  private let isResumed = Atomic<Bool>(false)

  init(
    name: String,
    description: @escaping @Sendable () -> String,
    fallback: @autoclosure @escaping @Sendable () -> Result,
    callback: @escaping @Sendable (Result) -> Void
  ) {
    self.name = name
    self.description = description
    self.fallback = fallback
    self.callback = callback
  }

  deinit {
    guard !isResumed.load(ordering: .acquiring) else { return }
    reportIssue(
      """
      \(description()) leaked its continuation without one of its resume methods being \
      invoked. This will cause tasks waiting on it to resume immediately.
      """
    )
    callback(fallback())
  }

  func resume(with result: Result) {
    guard !isResumed.exchange(true, ordering: .acquiringAndReleasing) else {
      reportIssue(
        "A '\(name)' for \(description()) was resumed more than once; the extra result is ignored."
      )
      return
    }
    callback(result)
  }
}
