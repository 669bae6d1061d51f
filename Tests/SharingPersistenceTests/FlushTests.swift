import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Writing what is pending, on demand.
@Suite struct FlushTests {
  @Test func flushWritesEveryPendingFileOfEveryStorage() async throws {
    try await withTemporaryDirectory { directory in
      let pendingWrites = PendingWrites()
      let storages = (0..<2).map { _ in
        FileStorage.fileSystem(scheduler: ManualWriteScheduler(), pendingWrites: pendingWrites)
      }
      let urls = (0..<4).map { directory.file("file-\($0).json") }
      for (index, url) in urls.enumerated() {
        try withDependencies {
          $0.defaultFileStorage = storages[index % 2]
        } operation: {
          @Shared(.fileStorage(url)) var value = 0
          // NB: Empty, as watching it created it: nothing was written yet.
          try #require(fileText(url) == "")
          $value.withLock { $0 = index + 1 }
          $value.withLock { $0 = (index + 1) * 10 }
        }
      }
      // NB: The first change of each file is written at once, the second waits.
      #expect(urls.map(fileText) == ["1", "2", "3", "4"])
      pendingWrites.flushAndWait()
      #expect(urls.map(fileText) == ["10", "20", "30", "40"])
    }
  }

  /// A write under way when the program-wide flush starts (a zero throttle writes at once,
  /// on the thread that changed the value) has landed when the flush returns.
  @Test func programWideFlushWaitsForAWriteAlreadyUnderway() async throws {
    try await withTemporaryDirectory { directory in
      let pendingWrites = PendingWrites()
      let storage = FileStorage.fileSystem(
        scheduler: ManualWriteScheduler(),
        pendingWrites: pendingWrites
      )
      let url = directory.file("count.txt")
      let (encoding, release, flushed) = (
        DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
      )
      try withDependencies {
        $0.defaultFileStorage = storage
      } operation: {
        let key = FileStorageKey<Int>.fileStorage(
          url,
          throttle: .zero,
          decode: { Int(String(decoding: $0, as: UTF8.self)) ?? 0 },
          encode: { value in
            encoding.signal()
            release.wait()
            return Data("\(value)".utf8)
          }
        )
        @Shared(key) var count = 0
        try #require(fileText(url) == "")
        Thread.detachNewThread { [$count] in $count.withLock { $0 = 1 } }
        encoding.wait()
      }
      let textAfterFlush = Locked<String?>(nil)
      Thread.detachNewThread {
        pendingWrites.flushAndWait()
        textAfterFlush.withLock { $0 = fileText(url) }
        flushed.signal()
      }
      // NB: Gives the flush time to start before the write may finish; if it has not started,
      //     the test proves nothing but still passes.
      usleep(50_000)
      release.signal()
      flushed.wait()
      #expect(textAfterFlush.withLock { $0 } == "1")
    }
  }

  @Test func programWideFlushWritesReleasedValues() async throws {
    try await withTemporaryDirectory { directory in
      let scheduler = ManualWriteScheduler()
      let storage = FileStorage.fileSystem(scheduler: scheduler).countingWrites()
      let first = directory.file("first.json")
      let second = directory.file("nested/second.json")
      withDependencies {
        $0.defaultFileStorage = storage
      } operation: {
        @Shared(.fileStorage(first)) var one = ""
        @Shared(.fileStorage(second)) var two = ""
        $one.withLock { $0 = "uno" }
        $two.withLock { $0 = "dos" }
        $one.withLock { $0 = "one" }
        $two.withLock { $0 = "two" }
      }
      #expect(fileText(first) == #""uno""#)
      await flushPendingWrites()
      #expect(fileText(first) == #""one""#)
      #expect(fileText(second) == #""two""#)
      scheduler.advance(by: .seconds(1))
      #expect(storage.writeCount(to: first) == 2)
    }
  }

  @Test func programWideFlushSynchronizesUserDefaults() throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(UserDefaults(suiteName: suite))
    @Shared(.appStorage("count", store: store)) var count = 0
    $count.withLock { $0 = 3 }
    flushPendingWritesAndWait()
    let plist = try Data(contentsOf: URL(fileURLWithPath: suite + ".plist"))
    let contents = try PropertyListSerialization.propertyList(from: plist, format: nil)
    #expect((contents as? [String: Any])?["count"] as? Int == 3)
  }

  /// A test's virtual file system keeps its pending writes from flushes made elsewhere,
  /// such as a parallel test flushing the whole program.
  @Test func virtualStoragesKeepTheirPendingWritesToThemselves() {
    let schedulers = [ManualWriteScheduler(), ManualWriteScheduler()]
    let storages = schedulers.map { FileStorage.inMemory(scheduler: $0) }
    let url = URL(fileURLWithPath: "/virtual/count.json")
    for (index, storage) in storages.enumerated() {
      withDependencies {
        $0.defaultFileStorage = storage
      } operation: {
        @Shared(.fileStorage(url)) var count = 0
        $count.withLock { $0 = 1 }
        schedulers[index].advance()
        $count.withLock { $0 = index + 2 }
      }
    }
    flushPendingWritesAndWait()
    #expect(storages.map { text($0.contents(of: url)) } == ["1", "1"])
    storages[0].flushPendingWritesAndWait()
    #expect(storages.map { text($0.contents(of: url)) } == ["2", "1"])
    schedulers[1].advance(by: .seconds(1))
    #expect(storages.map { text($0.contents(of: url)) } == ["2", "3"])
  }

  @Test func storageFlushWritesOnlyThatStorage() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      $count.withLock { $0 = 2 }
      #expect(fileText(url) == "1")
      storage.flushPendingWritesAndWait()
      #expect(fileText(url) == "2")
    }
  }
}
