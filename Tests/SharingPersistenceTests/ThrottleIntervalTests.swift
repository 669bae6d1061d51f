import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Throttle intervals per key and per storage, and the playback of external changes, all
/// driven by a manual scheduler.
@Suite struct ThrottleIntervalTests {
  @Test func zeroIntervalWritesThrough() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("ledger.json")
      @Shared(.fileStorage(url, throttle: .zero)) var ledger: [Int] = []
      for entry in 1...3 {
        $ledger.withLock { $0.append(entry) }
        #expect(storage.writeCount(to: url) == entry)
        #expect(
          fileText(url) == "[\n" + (1...entry).map { "  \($0)" }.joined(separator: ",\n") + "\n]"
        )
      }
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test func customIntervalSpacesWrites() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("cursor.json")
      @Shared(.fileStorage(url, throttle: .milliseconds(250))) var cursor = 0
      $cursor.withLock { $0 = 1 }
      scheduler.advance()
      #expect(fileText(url) == "1")
      for position in 2...50 { $cursor.withLock { $0 = position } }
      scheduler.advance(by: .milliseconds(249))
      #expect(storage.writeCount(to: url) == 1)
      scheduler.advance(by: .milliseconds(1))
      #expect(storage.writeCount(to: url) == 2)
      #expect(fileText(url) == "50")
      scheduler.advance(by: .seconds(10))
      $cursor.withLock { $0 = 51 }
      scheduler.advance()
      #expect(fileText(url) == "51")
    }
  }

  @Test func keyIntervalOverridesTheStorages() {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler, throttle: .seconds(5))
    let slowURL = URL(fileURLWithPath: "/virtual/slow.json")
    let fastURL = URL(fileURLWithPath: "/virtual/fast.json")
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(slowURL)) var slow = 0
      @Shared(.fileStorage(fastURL, throttle: .seconds(1))) var fast = 0
      for value in 1...2 {
        $slow.withLock { $0 = value }
        $fast.withLock { $0 = value }
        scheduler.advance()
      }
      scheduler.advance(by: .seconds(1))
      #expect(text(storage.contents(of: slowURL)) == "1")
      #expect(text(storage.contents(of: fastURL)) == "2")
      scheduler.advance(by: .seconds(4))
      #expect(text(storage.contents(of: slowURL)) == "2")
    }
  }

  @Test func externalChangesArePlayedBackOnTheScheduler() {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    let url = URL(fileURLWithPath: "/virtual/count.json")
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var count = 0
      storage.simulateExternalWrite(bytes("7"), to: url)
      #expect(count == 0)
      scheduler.advance()
      #expect(count == 7)
    }
  }

  @Test func theStoragesIntervalSpacesWritesOnTheVirtualFileSystem() {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    let url = URL(filePath: "/todos.json")
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      $count.withLock { $0 = 2 }
      scheduler.advance(by: .milliseconds(999))
      #expect(storage.contents(of: url) == Data("1".utf8))
      scheduler.advance(by: .milliseconds(1))
      #expect(storage.contents(of: url) == Data("2".utf8))
    }
  }
}
