import SharingDependencies

/// Hands out cache scopes that no other test or run has used.
enum FreshCacheScope {
  private static let counter = Locked(0)

  /// A cache scope of its own: every dependency read in it resolves to a fresh default.
  static func next() -> DependencyValues.CacheScope {
    let id = counter.withLock { count in
      count += 1
      return count
    }
    return .isolated(id)
  }
}
