import Foundation
import SharingDependencies
import TestSupport
import Testing

@testable import SharingCore

/// Who hands a shared value's changes to its `values` sequences while many threads write.
@Suite struct SharedValuesTests {
  @Test func aWriteYieldsAtMostItsOwnChangeAndOneHandedOverWhileOthersKeepWriting() async throws {
    let count = Shared(value: 0)
    let write = OneWriteAmongWriters()
    // NB: A yield reads the value once, through the reader's transform, on the yielding
    //     thread.
    let reader = SharedReader(count).read { value in
      write.turnTaken()
      return value
    }
    let received = Locked<[Int]>([])
    let end = -1
    let final = try await withWatchdog(seconds: 60) {
      let consumer = Task {
        for await value in reader.values {
          if value == end { break }
          received.withLock { $0.append(value) }
        }
      }
      while received.withLock(\.isEmpty) { await Task.yield() }
      await write.run(on: count)
      // NB: Every writer has returned, so every yield was made: the last value before this
      //     end marker must be the final one.
      let final = count.wrappedValue
      count.withLock { $0 = end }
      await consumer.value
      return final
    }
    #expect((1...2).contains(write.observedTurns))
    let values = received.withLock { $0 }
    #expect(values.last == final)
    let outOfOrder = zip(values, values.dropFirst()).filter { $0 > $1 }
    #expect(outOfOrder.isEmpty, "\(outOfOrder.count) values after a newer one")
  }

  /// A change made inside a `withLock` on another value does not wait for a yield under way,
  /// whose reader's transform reads that other value: waiting would hold the other value's
  /// lock, which the yield waits for.
  @Test func aWriteInsideAnotherValuesWithLockNeverWaitsForAYieldThatReadsIt() async throws {
    let (a, b) = (Shared(value: 0), Shared(value: 0))
    // NB: Held, not identified by address, which a later thread's 'Thread' may reuse.
    let yielder = Locked<Thread?>(nil)
    // NB: 1: the yielder's own turn began; 2: another thread changed 'a' meanwhile, which
    //     the yielder is handed; 3: the yielder takes that turn, and 'a' is changed inside
    //     a 'withLock' on 'b'.
    let step = Locked(0)
    let reader = SharedReader(a).read { value in
      guard yielder.withLock({ $0 }) === Thread.current else { return value }
      switch step.withLock({ $0 }) {
      case 0:
        step.withLock { $0 = 1 }
        while step.withLock({ $0 }) < 2 { sched_yield() }
      case 2:
        step.withLock { $0 = 3 }
        while a.wrappedValue < 3 { sched_yield() }
        _ = b.wrappedValue
      default:
        break
      }
      return value
    }
    let done = Locked(0)
    // NB: Generous: in a full run under ThreadSanitizer, the consumer's task and the job
    //     yielding the last value can wait tens of seconds for a thread.
    try await withWatchdog(seconds: 120) {
      let received = Locked<[Int]>([])
      let consumer = Task {
        for await value in reader.values {
          received.withLock { $0.append(value) }
          if value == 3 { break }
        }
      }
      while received.withLock(\.isEmpty) { await Task.yield() }
      Thread.detachNewThread {
        while step.withLock({ $0 }) < 1 { sched_yield() }
        a.withLock { $0 += 1 }
        step.withLock { $0 = 2 }
      }
      Thread.detachNewThread {
        while step.withLock({ $0 }) < 3 { sched_yield() }
        b.withLock { _ in a.withLock { $0 += 1 } }
        done.withLock { $0 += 1 }
      }
      Thread.detachNewThread {
        yielder.withLock { $0 = Thread.current }
        a.withLock { $0 += 1 }
        done.withLock { $0 += 1 }
      }
      while done.withLock({ $0 }) < 2 { await Task.yield() }
      await consumer.value
      #expect(received.withLock { $0.last } == 3)
    }
  }
}
