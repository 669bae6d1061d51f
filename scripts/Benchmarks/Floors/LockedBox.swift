import Foundation

/// The floor: what a thread-safe box written by hand does, an `NSLock` around a value in a
/// class.
///
/// Its methods are never inlined into the benchmark loop, as calls into SharingCore are
/// not, so each operation pays a call, a lock and an unlock, and the optimiser cannot hoist
/// or merge operations across iterations. They are still specialised for the value type,
/// as a box written by hand in an app would be.
final class LockedBox<Value>: @unchecked Sendable {
  // NB: Unchecked: 'value' is only accessed with 'lock' held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  @inline(never)
  func read() -> Value {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  @inline(never)
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
