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
    #expect(write.observedTurns <= 2)
    let values = received.withLock { $0 }
    #expect(values.last == final)
    let outOfOrder = zip(values, values.dropFirst()).filter { $0 > $1 }
    #expect(outOfOrder.isEmpty, "\(outOfOrder.count) values after a newer one")
  }
}
