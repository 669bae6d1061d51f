import Observation
import Synchronization

/// The floor for observed values: an `Observable` class holding an integer behind a `Mutex`,
/// as one would write by hand (what the `@Observable` macro expands to, plus the lock).
final class ObservableMutexBox: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let mutex = Mutex(0)
  // NB: Stored, as SharingCore stores its own, so neither side pays for a key path literal.
  private let valueKeyPath: any KeyPath<ObservableMutexBox, Int> & Sendable = \.value

  var value: Int { read() }

  @inline(never)
  func read() -> Int {
    registrar.access(self, keyPath: valueKeyPath)
    return mutex.withLock { $0 }
  }

  @inline(never)
  func increment() {
    registrar.withMutation(of: self, keyPath: valueKeyPath) {
      mutex.withLock { $0 += 1 }
    }
  }
}
