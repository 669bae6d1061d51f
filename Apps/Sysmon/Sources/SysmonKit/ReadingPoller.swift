import Dispatch
package import Foundation
import SharingDependencies

/// Reads a file every interval on a queue, and reports each result that differs from the
/// one before, until cancelled.
final class ReadingPoller<Reading: Equatable & Sendable>: Sendable {
  private let url: URL
  private let timer = Locked<(any DispatchSourceTimer)?>(nil)
  private let last = Locked<Result<Reading, SystemReadingError>?>(nil)

  /// Starts polling; the first read is one `interval` from now.
  init(
    url: URL,
    interval: Duration,
    queue: DispatchQueue,
    read: @escaping @Sendable () -> Result<Reading, SystemReadingError>,
    onChange: @escaping @Sendable (Result<Reading, SystemReadingError>) -> Void
  ) {
    self.url = url
    activePollers.withLock { $0[url, default: 0] += 1 }
    timer.withLock { timer in
      let source = DispatchSource.makeTimerSource(queue: queue)
      let period = DispatchTimeInterval.nanoseconds(interval.nanoseconds)
      source.schedule(deadline: .now() + period, repeating: period)
      source.setEventHandler { [weak self] in
        let result = read()
        if self?.isChange(result) == true { onChange(result) }
      }
      source.resume()
      timer = source
    }
  }

  /// Whether a result differs from the one before; remembers it.
  private func isChange(_ result: Result<Reading, SystemReadingError>) -> Bool {
    last.withLock { last in
      defer { last = result }
      return last != result
    }
  }

  /// Stops polling. Calling it again has no effect.
  func cancel() {
    let wasActive = timer.withLock { timer in
      defer { timer = nil }
      timer?.cancel()
      return timer != nil
    }
    guard wasActive else { return }
    activePollers.withLock { active in
      active[url, default: 1] -= 1
      if active[url] == 0 { active[url] = nil }
    }
  }
}

/// The number of pollers reading each file, to tell when polling stopped. Not a static
/// property: a generic class cannot have one.
private let activePollers = Locked<[URL: Int]>([:])

/// How many subscriptions are reading a file again and again: none once every reader of
/// it went away.
///
/// - Parameter url: The file.
/// - Returns: The number of subscriptions polling it.
package func activePolls(of url: URL) -> Int {
  activePollers.withLock { $0[url.standardizedFileURL] ?? 0 }
}

extension Duration {
  /// The duration in whole nanoseconds.
  var nanoseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }
}
