import SharingDependencies
import Synchronization

/// Hands out cache scopes that no other test or run has used.
enum FreshCacheScope {
  private static let counter = Atomic<Int>(0)

  /// A cache scope of its own: every dependency read in it resolves to a fresh default.
  static func next() -> DependencyValues.CacheScope {
    .isolated(counter.add(1, ordering: .relaxed).newValue)
  }
}
