import SharingCore
import SharingDependencies

/// The file locks each thread holds, so that a thread asking again for a lock it holds is
/// answered at once, rather than left waiting for itself forever.
final class FileLockHolders<Key: Hashable & Sendable>: Sendable {
  private struct Hold: Hashable {
    let key: Key
    let thread: UInt
  }

  private let holds = Locked(Set<Hold>())

  /// Takes the lock of `key` with `take`, unless the calling thread holds it already: then
  /// returns, without waiting, a lock that is a ``FileLock/isReentry`` and releases nothing.
  func lock(_ key: Key, _ take: () throws -> FileLock) rethrows -> FileLock {
    let hold = Hold(key: key, thread: currentThreadID())
    guard !holds.withLock({ $0.contains(hold) }) else { return FileLock(isReentry: true) {} }
    let lock = try take()
    holds.withLock { _ = $0.insert(hold) }
    return FileLock { [self] in
      holds.withLock { _ = $0.remove(hold) }
      lock.unlock()
    }
  }
}
