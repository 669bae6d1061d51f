import Foundation
import SharingDependencies

/// Runs `body` on `tasks` child tasks and `threads` threads at once, each given its index;
/// returns when all have finished.
public func runConcurrently(
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
            // NB: A local lives to the end of its scope, not to its last use: the body is
            //     released as this scope ends, before 'done' is resumed.
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
