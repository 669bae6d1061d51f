import Synchronization

/// The one lock held while a dependency's value is built, as swift-dependencies holds its
/// own.
///
/// A shared value created on another thread meanwhile waits for the value to be built: a
/// dependency whose initialiser creates and changes a shared value (swift-sharing's
/// `lockingOrderWithDependencies`) is seen, changed, by a shared value of the same key created
/// at the same time.
package enum DependencyResolution {
  private static let lock = RecursiveLock()

  /// Builds a dependency's value with the lock held.
  static func building<Value>(_ build: () -> Value) -> Value {
    lock.withLock(build)
  }

  /// Returns once no other thread builds a dependency's value.
  package static func waitForValuesBeingBuilt() {
    lock.withLock {}
  }
}

/// A lock its holder may take again.
// NB: Recursive: building a dependency's value reads other dependencies, which may be built
//     in turn, on the same thread.
private final class RecursiveLock: Sendable {
  private let lock = Lock()
  private let owner = Atomic<UInt>(0)

  func withLock<R>(_ body: () -> R) -> R {
    let thread = currentThreadID()
    if owner.load(ordering: .relaxed) == thread { return body() }
    lock.lock()
    owner.store(thread, ordering: .relaxed)
    defer {
      owner.store(0, ordering: .relaxed)
      lock.unlock()
    }
    return body()
  }
}
