import Dispatch
import Foundation
import SharingCore
import SharingPersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `coordinated-increment <path> <threads> <n> <total>`: `threads` threads each run
/// `withLock { $0 += 1 }` `n` times on `.fileStorage(path, .coordinated)`; then the process
/// waits until its memory holds `total` (the increments of every process, played back), and
/// exits 0. Exits 1 if a change failed, 2 if memory never reaches `total`.
func coordinatedIncrement(path: String, threads: Int, increments: Int, total: Int) {
  let count = Shared(wrappedValue: 0, .fileStorage(URL(fileURLWithPath: path), .coordinated))
  DispatchQueue.concurrentPerform(iterations: threads) { _ in
    for _ in 0..<increments { count.withLock { $0 += 1 } }
  }
  if let error = count.saveError { fail("A change failed: \(error)") }
  wait(for: "memory to hold \(total), not \(count.wrappedValue)") { count.wrappedValue == total }
}

/// Increments counted by who made them: a lost update loses a process's own count too, so
/// `counts[id]` tells exactly how many of a process's changes the file kept.
struct Tally: Codable, Sendable {
  var total = 0
  var counts: [String: Int] = [:]
}

/// `coordinated-tally <path> <id> <threads> <n> <started>`: `threads` threads each add one
/// to `total` and to `counts[id]`, `n` times, in `withLock` on `.fileStorage(path,
/// .coordinated)`; with `n` of 0, forever, holding the lock a millisecond each time, until
/// killed. Creates the file `started` after its first change. Exits 1 if a change failed.
func coordinatedTally(path: String, id: String, threads: Int, increments: Int, started: String) {
  let tally = Shared(wrappedValue: Tally(), .fileStorage(URL(fileURLWithPath: path), .coordinated))
  let forever = increments == 0
  DispatchQueue.concurrentPerform(iterations: threads) { thread in
    var made = 0
    while forever || made < increments {
      tally.withLock { tally in
        tally.total += 1
        tally.counts[id, default: 0] += 1
        if forever { usleep(1_000) }
      }
      if let error = tally.saveError { fail("A change failed: \(error)") }
      made += 1
      if made == 1, thread == 0 { touch(started) }
    }
  }
}
