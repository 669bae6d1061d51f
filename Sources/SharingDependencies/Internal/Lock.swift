// Public: the lock is taken in code inlined into other modules, and the compiler refuses a
// package import for the types of a `@usableFromInline` property.
public import Synchronization

/// A mutual-exclusion lock: `Synchronization.Mutex` plus a handoff that ThreadSanitizer can
/// see.
///
/// On Linux a contended `Mutex` is handed from one thread to the next by the kernel (a
/// priority-inheriting futex), so ThreadSanitizer sees no synchronisation and reports races
/// on state the lock guards. An acquiring load after locking and a releasing store before
/// unlocking give it the happens-before edge; on x86 and ARM both are plain moves.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  // Unchecked: both members are thread-safe; the struct only combines them.
  @usableFromInline let mutex = Mutex<Void>(())
  @usableFromInline let handoff = Atomic<Int>(0)

  package init() {}

  @inlinable @inline(__always)
  package borrowing func lock() {
    mutex._unsafeLock()
    _ = handoff.load(ordering: .acquiring)
  }

  /// Locks if no other thread holds the lock; returns whether it locked.
  @inlinable @inline(__always)
  package borrowing func tryLock() -> Bool {
    guard mutex._unsafeTryLock() else { return false }
    _ = handoff.load(ordering: .acquiring)
    return true
  }

  @inlinable @inline(__always)
  package borrowing func unlock() {
    handoff.store(0, ordering: .releasing)
    mutex._unsafeUnlock()
  }

  @inlinable @inline(__always)
  package borrowing func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A value guarded by a ``Lock``. The value need not be `Sendable`: it never leaves the lock
/// except as a copy returned by the body.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
  // Unchecked, and so are the exclusivity checks of 'value': it is only accessed with 'lock'
  // held, which already excludes overlapping accesses.
  @usableFromInline let lock = Lock()
  @usableFromInline @exclusivity(unchecked) var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  @inlinable
  package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    try lock.withLock { () throws(E) -> R in try body(&value) }
  }
}
