import Synchronization

/// The floor: the least a thread-safe shared box can do, a `Mutex` around a value in a class.
///
/// Its methods are never inlined into the benchmark loop, as calls into SharingCore are
/// not, so each operation pays a call, a lock and an unlock, and the optimiser cannot hoist
/// or merge operations across iterations. They are still specialised for the value type,
/// as a box written by hand in an app would be.
final class MutexBox<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) {
    self.mutex = Mutex(value)
  }

  @inline(never)
  func read() -> Value {
    mutex.withLock { $0 }
  }

  @inline(never)
  func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R {
    mutex.withLock { value in body(&value) }
  }
}
