import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` and returns its result. If it has not returned after `seconds`, records that
/// it hangs, and calls `unblock` until it returns, so that the test ends.
///
/// The deadline is kept by a thread of its own, which a `body` blocking every thread of the
/// task pool cannot hold up. A `body` that blocks its thread for long should run on a thread
/// of its own itself (`onThreadOfItsOwn`).
@discardableResult
func withoutHanging<R>(
  seconds: Int = 30,
  _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  unblock: @escaping @Sendable () -> Void,
  _ body: () async throws -> R
) async rethrows -> R {
  let returned = DispatchSemaphore(value: 0)
  let hung = Locked(false)
  Thread.detachNewThread {
    guard returned.wait(timeout: .now() + .seconds(seconds)) == .timedOut else { return }
    hung.withLock { $0 = true }
    repeat { unblock() } while returned.wait(timeout: .now() + .milliseconds(10)) == .timedOut
  }
  defer {
    returned.signal()
    if hung.withLock({ $0 }) {
      Issue.record("\(what) did not return within \(seconds) s", sourceLocation: sourceLocation)
    }
  }
  return try await body()
}
