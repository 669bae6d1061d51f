import Foundation
import SharingDependencies

/// Runs `body` on a thread of its own, with the caller's dependencies and the cache of the
/// running test (which the thread cannot find by itself); returns its result.
///
/// For long synchronous work, such as megabytes to encode under ThreadSanitizer or a server
/// to start: on a thread of the task pool, which every test of the process shares, it would
/// hold up the others for as long as it runs. `body` records no issue: it returns what the
/// test then checks.
public func onThreadOfItsOwn<R: Sendable, E: Error>(
  _ body: @escaping @Sendable () throws(E) -> R
) async throws(E) -> R {
  var current = DependencyValues.current
  current.cacheScope = current.resolvedCacheScope
  let dependencies = current
  let result = await withCheckedContinuation { (done: CheckedContinuation<Result<R, E>, Never>) in
    Thread.detachNewThread {
      done.resume(
        returning: DependencyValues.$current.withValue(dependencies) { Result(catching: body) }
      )
    }
  }
  return try result.get()
}
