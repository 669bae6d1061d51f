import Synchronization

/// The one lock held while a dependency's value is built, as swift-dependencies holds its
/// own.
///
/// A shared value created on another thread meanwhile waits for the value to be built: a
/// dependency whose initialiser creates and changes a shared value (swift-sharing's
/// `lockingOrderWithDependencies`) is seen, changed, by a shared value of the same key created
/// at the same time.
package enum DependencyResolution {
  private static let lock = Lock()
  /// The thread holding the lock, or 0.
  private static let owner = Atomic<UInt>(0)

  /// Builds a dependency's value with the lock held.
  static func building<Value>(_ build: () -> Value) -> Value {
    let thread = currentThreadID()
    // Recursive: building a dependency's value reads other dependencies, which may be built
    // in turn, on the same thread.
    if owner.load(ordering: .relaxed) == thread { return build() }
    lock.lock()
    owner.store(thread, ordering: .relaxed)
    defer {
      owner.store(0, ordering: .relaxed)
      lock.unlock()
    }
    return build()
  }

  /// Returns once no other thread builds a dependency's value.
  package static func waitForValuesBeingBuilt() {
    building {}
  }
}
