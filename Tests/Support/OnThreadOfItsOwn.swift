import Foundation
import SharingDependencies

/// Runs `body` on a thread of its own, with the caller's dependencies and the cache of the
/// running test (which the thread cannot find by itself); returns its result.
///
/// For long synchronous work, such as megabytes to encode under ThreadSanitizer: on a thread
/// of the task pool, which every test of the process shares, it would hold up the others for
/// as long as it runs. `body` records no issue: it returns what the test then checks.
public func onThreadOfItsOwn<R: Sendable>(
  _ body: @escaping @Sendable () throws -> R
) async throws -> R {
  var current = DependencyValues.current
  current.cacheScope = current.resolvedCacheScope
  let dependencies = current
  return try await withCheckedThrowingContinuation { done in
    Thread.detachNewThread {
      done.resume(
        with: Result { try DependencyValues.$current.withValue(dependencies, operation: body) }
      )
    }
  }
}
