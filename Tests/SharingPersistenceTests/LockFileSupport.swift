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
/// task pool cannot hold up. A `body` that blocks its thread should use
/// ``withoutHangingOnThreadOfItsOwn(seconds:_:sourceLocation:unblock:_:)``.
@discardableResult
func withoutHanging<R>(
  seconds: Int = 30,
  _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  unblock: @escaping @Sendable () -> Void,
  _ body: () async throws -> R
) async rethrows -> R {
  let watchdog = HangWatchdog(seconds: seconds, unblock: unblock)
  defer {
    watchdog.bodyReturned()
    watchdog.recordIfHung(what, sourceLocation)
  }
  return try await body()
}

/// Runs `body` on a thread of its own and returns its result. If it has not returned after
/// `seconds`, records that it hangs, and calls `unblock` until it returns, so that the test
/// ends.
///
/// The deadline ends when `body` returns on its thread: other tests that keep every thread of
/// the task pool busy may delay the caller's resumption long after that, which is no hang.
@discardableResult
func withoutHangingOnThreadOfItsOwn<R: Sendable>(
  seconds: Int = 30,
  _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  unblock: @escaping @Sendable () -> Void,
  _ body: @escaping @Sendable () -> R
) async -> R {
  let watchdog = HangWatchdog(seconds: seconds, unblock: unblock)
  let result = await onThreadOfItsOwn {
    defer { watchdog.bodyReturned() }
    return body()
  }
  watchdog.recordIfHung(what, sourceLocation)
  return result
}

/// A thread that, unless told that a body returned within `seconds` (scaled under
/// ThreadSanitizer), marks it as hung and calls `unblock` until it returns.
private final class HangWatchdog: Sendable {
  private let returned = DispatchSemaphore(value: 0)
  private let hung = Locked(false)
  private let bound: Int

  init(seconds: Int, unblock: @escaping @Sendable () -> Void) {
    bound = seconds * ThreadSanitizer.timeScale
    Thread.detachNewThread { [returned, hung, bound] in
      guard returned.wait(timeout: .now() + .seconds(bound)) == .timedOut else { return }
      hung.withLock { $0 = true }
      repeat { unblock() } while returned.wait(timeout: .now() + .milliseconds(10)) == .timedOut
    }
  }

  func bodyReturned() {
    returned.signal()
  }

  func recordIfHung(_ what: String, _ sourceLocation: SourceLocation) {
    guard hung.withLock({ $0 }) else { return }
    Issue.record("\(what) did not return within \(bound) s", sourceLocation: sourceLocation)
  }
}

/// An exclusive `flock` on a file, held through a descriptor of its own, as another program
/// holding the lock would: `flock` locks made through two descriptors conflict, even in one
/// process.
final class HeldLock: Sendable {
  private let descriptor: Int32
  private let isHeld = Locked(true)
  /// The inode of the locked file, which `/proc/locks` names.
  let inode: UInt64

  /// Creates the file at `url` if missing, and locks it.
  init(_ url: URL) throws {
    descriptor = open(url.path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
    try #require(descriptor >= 0)
    try #require(flock(descriptor, LOCK_EX) == 0)
    inode = try SharingPersistenceTests.inode(of: url)
  }

  /// Releases the lock, once.
  func release() {
    let wasHeld = isHeld.withLock { isHeld in
      defer { isHeld = false }
      return isHeld
    }
    if wasHeld { close(descriptor) }
  }

  deinit { release() }

  /// How many `flock` calls on the file wait for this lock now, as `/proc/locks` lists them,
  /// each with the `->` of a blocked request.
  var waiterCount: Int {
    guard let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else {
      return 0
    }
    return locks.split(separator: "\n").count { line in
      let fields = line.split(separator: " ")
      return fields.contains("->") && fields.contains { $0.hasSuffix(":\(inode)") }
    }
  }
}
