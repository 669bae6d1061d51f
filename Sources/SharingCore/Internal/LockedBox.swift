import Synchronization

/// A value guarded by a mutex, for values that need not be `Sendable` (a `Mutex` would
/// require them to be sent in and out of the lock).
final class LockedBox<Content>: @unchecked Sendable {
  // NB: Unchecked: 'content' is only accessed with 'lock' held.
  private let lock = Mutex<Void>(())
  private var content: Content

  init(_ content: Content) {
    self.content = content
  }

  func withLock<R>(_ body: (inout Content) throws -> R) rethrows -> R {
    lock._unsafeLock()
    defer { lock._unsafeUnlock() }
    return try body(&content)
  }
}
