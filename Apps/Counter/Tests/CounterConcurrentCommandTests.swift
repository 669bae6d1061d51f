import AppTestSupport
import CounterKit
import Foundation
import Testing

/// Several `counter` processes started at once on one store, as scripts and cron jobs do.
@Suite struct CounterConcurrentCommandTests {
  @Test func tenIncrementsAtOnceCountTen() async throws {
    try await withTemporaryDirectory { directory in
      let counter = try Program("counter")
      let increments = try (1...10).map { _ in try counter.start(["increment"], in: directory) }
      for increment in increments {
        let run = await increment.finish()
        #expect(run.status == 0, "\(run.errorOutput)")
      }
      let show = try await counter.run([], in: directory)
      #expect(show.output == "Count: 10\nLaunched 11 times\n")
    }
  }

  @Test func theLockFileIsBesideTheStore() async throws {
    try await withTemporaryDirectory { directory in
      let store = directory.file("state/counter.plist")
      _ = try await Program("counter").run(["--store", store.path, "increment"], in: directory)
      #expect(CounterLock.file(beside: store).lastPathComponent == ".counter.plist.counter.lock")
      #expect(FileManager.default.fileExists(atPath: CounterLock.file(beside: store).path))
    }
  }
}
