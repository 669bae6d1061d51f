import Foundation
import SharingCore
import SharingDependencies
import Testing

/// Runs `body` on `tasks` child tasks and `threads` threads at once, each given its index;
/// returns when all have finished.
func runConcurrently(
  tasks: Int,
  threads: Int,
  _ body: @escaping @Sendable (Int) -> Void
) async {
  await withTaskGroup(of: Void.self) { group in
    for index in 0..<tasks {
      group.addTask { body(index) }
    }
    for index in tasks..<(tasks + threads) {
      group.addTask {
        // NB: The thread drops the body before it says it is done: a finished thread keeps
        //     its closure until it is torn down, which would keep the values it captured.
        let work = Locked<(@Sendable (Int) -> Void)?>(body)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
          Thread.detachNewThread {
            do {
              let body = work.withLock { work in
                defer { work = nil }
                return work
              }
              body?(index)
            }
            done.resume()
          }
        }
      }
    }
  }
}

/// Runs an operation, failing the test with "deadlock" if it does not finish within a bound.
///
/// Unlike a task group, it does not wait for an operation that is stuck on a lock: it
/// records the failure and returns.
func withDeadlockWatchdog(
  seconds: Int = 60,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ operation: @escaping @Sendable () async throws -> Void
) async throws {
  let finished = Locked(false)
  let timer = Locked<Task<Void, Never>?>(nil)
  let result: Result<Void, any Error>? = await withCheckedContinuation { continuation in
    let resume = { @Sendable (result: Result<Void, any Error>?) in
      guard
        finished.withLock({ done in
          defer { done = true }; return !done
        })
      else { return }
      continuation.resume(returning: result)
    }
    timer.withLock {
      $0 = Task {
        try? await Task.sleep(for: .seconds(seconds))
        resume(nil)
      }
    }
    Task {
      do {
        try await operation()
        resume(.success(()))
      } catch {
        resume(.failure(error))
      }
    }
  }
  timer.withLock { $0?.cancel() }
  guard let result else {
    Issue.record(
      "deadlock: the operation did not finish within \(seconds)s",
      sourceLocation: sourceLocation
    )
    return
  }
  try result.get()
}

/// Weak references to objects, to check that they all went away.
final class WeakReferences: Sendable {
  private struct Weak: @unchecked Sendable {
    // NB: Unchecked: only accessed under the lock.
    weak var object: AnyObject?
  }

  private let references = Locked<[Weak]>([])

  func append(_ object: AnyObject) {
    references.withLock { $0.append(Weak(object: object)) }
  }

  var count: Int { references.withLock(\.count) }
  var aliveCount: Int { references.withLock { $0.filter { $0.object != nil }.count } }
}

/// A key that behaves like `base`, with the same identity, and counts its live
/// subscriptions: the store's subscription must be cancelled once no shared value uses it.
struct CountingKey<Base: SharedKey>: SharedKey where Base.Value: Sendable {
  let base: Base
  let subscriptions: SubscriptionCounter

  var id: Base.ID { base.id }

  func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Base.Value>,
    subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    subscriptions.open()
    let subscription = base.subscribe(context: context, subscriber: subscriber)
    return SharedSubscription { [subscriptions] in
      subscription.cancel()
      subscriptions.close()
    }
  }

  func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}

final class SubscriptionCounter: Sendable {
  private let counts = Locked((opened: 0, live: 0))

  func open() {
    counts.withLock {
      $0.opened += 1; $0.live += 1
    }
  }
  func close() { counts.withLock { $0.live -= 1 } }

  var opened: Int { counts.withLock(\.opened) }
  var live: Int { counts.withLock(\.live) }
}
