import SharingCore
import SharingPersistence
import TestSupport
import Testing

/// A child feature often holds a reader of a setting before the parent's writer exists.
@Suite struct AppStorageReaderFirstTests {
  @Test func writesAfterAReaderCreatedTheValueAreNeverLost() async throws {
    @SharedReader(.appStorage("count")) var reader = 0
    @Shared(.appStorage("count")) var count = 0
    let writer = $count
    try await withWatchdog {
      await runConcurrently(tasks: 2, threads: 2) { _ in
        for _ in 0..<1_000 { writer.withLock { $0 += 1 } }
      }
    }
    #expect(count == 4_000)
    #expect(reader == 4_000)
  }

  @Test func eachWriteReachesObserversOnce() async throws {
    @SharedReader(.appStorage("count")) var reader = 0
    @Shared(.appStorage("count")) var count = 0
    let values = try await withWatchdog { [count = $count] in
      var iterator = count.values.makeAsyncIterator()
      var seen = [await iterator.next()]
      count.withLock { $0 = 1 }
      seen.append(await iterator.next())
      count.withLock { $0 = 2 }
      seen.append(await iterator.next())
      return seen
    }
    #expect(values == [0, 1, 2])
    _ = reader
  }
}
