import Foundation
import SharingDependencies
import TestSupport
import Testing

@testable import SharingCore

/// Who hands a shared value's changes to its `values` sequences while many threads write.
@Suite struct SharedValuesTests {
  @Test func aWriteYieldsAtMostItsOwnChangeAndOneHandedOverWhileOthersKeepWriting() async throws {
    let count = Shared(value: 0)
    let writers = 4
    let progress = Locked(
      (observed: nil as ObjectIdentifier?, observedYields: 0, started: false, writes: 0)
    )
    let finished = Locked((isCallDone: false, threads: 0))
    // NB: A yield reads the value once, through the reader's transform, on the yielding
    //     thread. The writers start during the call's own yield, so that the call is the
    //     one yielding while they write; they write until it returns, or up to a bound if it
    //     never does.
    let reader = SharedReader(count).read { value in
      let thread = ObjectIdentifier(Thread.current)
      let isFirstObservedYield = progress.withLock { progress in
        guard progress.observed == thread else { return false }
        progress.observedYields += 1
        progress.started = true
        return progress.observedYields == 1
      }
      if isFirstObservedYield {
        while progress.withLock({ $0.writes }) < writers * 10 { sched_yield() }
      }
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
      for _ in 0..<writers {
        Thread.detachNewThread {
          while !progress.withLock({ $0.started }) { sched_yield() }
          for _ in 0..<20_000 where !finished.withLock({ $0.isCallDone }) {
            count.withLock { $0 += 1 }
            progress.withLock { $0.writes += 1 }
          }
          finished.withLock { $0.threads += 1 }
        }
      }
      Thread.detachNewThread {
        progress.withLock { $0.observed = ObjectIdentifier(Thread.current) }
        count.withLock { $0 += 1 }
        finished.withLock {
          $0.isCallDone = true
          $0.threads += 1
        }
      }
      while finished.withLock({ $0.threads }) < writers + 1 { await Task.yield() }
      // NB: Every writer has returned, so every yield was made: the last value before this
      //     end marker must be the final one.
      let final = count.wrappedValue
      count.withLock { $0 = end }
      await consumer.value
      return final
    }
    #expect(progress.withLock { $0.observedYields } <= 2)
    let values = received.withLock { $0 }
    #expect(values.last == final)
    let outOfOrder = zip(values, values.dropFirst()).filter { $0 > $1 }
    #expect(outOfOrder.isEmpty, "\(outOfOrder.count) values after a newer one")
  }
}
