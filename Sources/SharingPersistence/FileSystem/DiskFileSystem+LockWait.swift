import Dispatch
import Foundation
import SharingDependencies

extension DiskFileSystem {
  /// Takes the `flock` of the lock file at `path`, open as `descriptor`, waiting at most
  /// `timeout` for whoever holds it.
  ///
  /// `flock` cannot wait for a limited time by itself. A lock held elsewhere is waited for by
  /// a thread of its own, blocked in `flock` on the same descriptor (the lock belongs to the
  /// open file, not to a thread), so that the kernel hands the lock over the moment it is
  /// released, as it would to the caller; the caller waits for that thread until the deadline.
  ///
  /// - Returns: The descriptor holding the lock: `descriptor`, or the descriptor of a wait
  ///   given up earlier that had the lock or got it within `timeout` (`descriptor` is then
  ///   closed).
  /// - Throws: The error of `flock`, or a ``FileError/lockTimedOut(waited:)`` past the deadline.
  ///   Either way the descriptor is no longer the caller's: it is closed at once, or, past the
  ///   deadline, by the waiting thread once its `flock` returns, which releases a lock taken
  ///   too late. Until then, the next wait for the same lock takes that thread's wait over.
  static func takeFlock(
    _ descriptor: Int32,
    of path: String,
    exclusive: Bool,
    timeout: Duration
  ) throws -> Int32 {
    let operation = exclusive ? LOCK_EX : LOCK_SH
    let key = LockWait.Key(path: path, operation: operation)
    let wait: LockWait
    if let abandoned = LockWait.takeOver(key) {
      close(descriptor)
      wait = abandoned
    } else {
      let code = flockResult(descriptor, operation | LOCK_NB)
      if code == 0 { return descriptor }
      guard code == EWOULDBLOCK else {
        close(descriptor)
        throw posixError(code)
      }
      wait = LockWait(key: key, descriptor: descriptor)
      let thread = Thread { wait.lock() }
      thread.name = "Sharing.FileLockWait"
      thread.start()
    }
    switch wait.result(within: timeout) {
    case .none:
      throw FileError.lockTimedOut(waited: timeout)
    case .some(0):
      return wait.descriptor
    case .some(let code):
      close(wait.descriptor)
      throw posixError(code)
    }
  }
}

/// A `flock` made by a waiting thread for a caller that waits for it until a deadline.
private final class LockWait: Sendable {
  /// A lock file, and how it is locked.
  struct Key: Hashable {
    let path: String
    let operation: Int32
  }

  private enum State {
    case waiting
    /// The lock was taken (0), or `flock` failed with this `errno`.
    case finished(Int32)
    /// The caller stopped waiting: the waiting thread owns the descriptor.
    case abandoned
    /// The waiting thread closed the descriptor, once its `flock` returned after the caller
    /// stopped waiting.
    case closed
  }

  let key: Key
  let descriptor: Int32
  private let state = Locked(State.waiting)
  private let finished = DispatchSemaphore(value: 0)

  /// The waits given up by their callers, whose threads still wait in `flock`: at most one
  /// per lock file and operation, which the next caller takes over, so that a lock held
  /// forever keeps one thread waiting, however often it is asked for.
  private static let abandoned = Locked<[Key: LockWait]>([:])

  init(key: Key, descriptor: Int32) {
    self.key = key
    self.descriptor = descriptor
  }

  /// The wait given up for `key`, if its thread still waits; the caller now waits for it.
  static func takeOver(_ key: Key) -> LockWait? {
    guard let wait = abandoned.withLock({ $0.removeValue(forKey: key) }) else { return nil }
    return wait.state.withLock { state in
      guard case .abandoned = state else { return nil }
      state = .waiting
      return wait
    }
  }

  /// Waits in `flock`, on the waiting thread, for as long as it takes.
  func lock() {
    let code = flockResult(descriptor, key.operation)
    let isAbandoned = state.withLock { state in
      guard case .abandoned = state else {
        state = .finished(code)
        return false
      }
      state = .closed
      return true
    }
    guard isAbandoned else {
      finished.signal()
      return
    }
    close(descriptor)
    Self.abandoned.withLock { abandoned in
      if abandoned[key] === self { abandoned[key] = nil }
    }
  }

  /// What `flock` returned, or `nil` if it did not return within `timeout`: then the wait is
  /// given up, for the next caller to take over.
  func result(within timeout: Duration) -> Int32? {
    _ = finished.wait(timeout: .now() + timeout.dispatchInterval)
    let code: Int32? = state.withLock { state in
      guard case .finished(let code) = state else {
        state = .abandoned
        return nil
      }
      return code
    }
    if code == nil {
      Self.abandoned.withLock { $0[key] = self }
    }
    return code
  }
}

/// Makes `flock`, again whenever a signal interrupts it; returns 0 once it succeeds, or the
/// `errno` it failed with.
private func flockResult(_ descriptor: Int32, _ operation: Int32) -> Int32 {
  while flock(descriptor, operation) != 0 {
    guard errno == EINTR else { return errno }
  }
  return 0
}
