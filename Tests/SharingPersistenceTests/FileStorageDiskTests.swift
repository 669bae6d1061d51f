import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// File storage on the real disk, with a manual scheduler so throttling is deterministic.
@Suite struct FileStorageDiskTests {
  @Test func throttlesAndCoalescesWrites() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 += 1 }
      #expect(storage.writeCount(to: url) == 1)
      #expect(fileText(url) == "1")
      for _ in 2...1_000 { $count.withLock { $0 += 1 } }
      scheduler.advance(by: .milliseconds(999))
      #expect(storage.writeCount(to: url) == 1)
      scheduler.advance(by: .milliseconds(1))
      #expect(storage.writeCount(to: url) == 2)
      #expect(fileText(url) == "1000")
      #expect(scheduler.pendingCount == 0)
    }
  }

  /// As in swift-sharing, the first change after a quiet period is in the file when
  /// `withLock` returns.
  @Test func firstChangeAfterQuietPeriodIsWrittenAtOnce() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      #expect(fileText(url) == "1")
      scheduler.advance(by: .seconds(5))
      $count.withLock { $0 = 2 }
      #expect(storage.writeCount(to: url) == 2)
      #expect(fileText(url) == "2")
    }
  }

  @Test func explicitSaveWritesAtOnce() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      $count.withLock { $0 = 2 }
      try await $count.save()
      #expect(fileText(url) == "2")
      scheduler.advance(by: .seconds(1))
      #expect(storage.writeCount(to: url) == 2)
    }
  }

  /// An explicit load reads the file with this program's own pending change in it, rather
  /// than going back to what the file held before.
  @Test func explicitLoadWritesThePendingChangeFirst() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      $count.withLock { $0 = 2 }
      try await $count.load()
      #expect(count == 2)
      #expect(fileText(url) == "2")
      scheduler.advance(by: .seconds(1))
      #expect(count == 2)
      #expect(storage.writeCount(to: url) == 2)
    }
  }

  @Test func unchangedBytesAreNotWrittenAgain() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      $count.withLock { $0 = 2 }
      $count.withLock { $0 = 1 }
      scheduler.advance(by: .seconds(1))
      #expect(storage.writeCount(to: url) == 1)
    }
  }

  @Test func releasedSharedStillHasItsPendingWriteFlushed() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      do {
        @Shared(.fileStorage(url)) var count = 0
        $count.withLock { $0 = 1 }
        scheduler.advance()
        $count.withLock { $0 = 2 }
      }
      #expect(fileText(url) == "1")
      storage.flushPendingWritesAndWait()
      #expect(fileText(url) == "2")
    }
  }

  @Test func createsParentDirectories() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("a/b/c/count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 3 }
      scheduler.advance()
      #expect(fileText(url) == "3")
    }
  }

  @Test func writesReplaceTheFileAtomically() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("count.json")
      try bytes("0").write(to: url)
      let before = try inode(of: url)
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      #expect(try inode(of: url) != before)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["count.json"]
      )
    }
  }

  @Test func undecodableFileIsPreservedBeforeBeingOverwritten() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("todos.json")
      try bytes("[oops").write(to: url)
      do {
        @Shared(.fileStorage(url)) var todos = ["default"]
        #expect(todos == ["default"])
        #expect($todos.loadError != nil)
        #expect(fileText(url) == "[oops")
        $todos.withLock { $0.append("new") }
        scheduler.advance()
      }
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
      #expect(names.count == 2)
      #expect(names.first == "todos.json")
      let preserved = try #require(names.last)
      #expect(preserved.hasPrefix("todos.json.corrupt-"))
      #expect(fileText(directory.file(preserved)) == "[oops")
      #expect(fileText(url) == "[\n  \"default\",\n  \"new\"\n]")
    }
  }

  @Test func writeFailureSetsSaveErrorUntilALaterSuccess() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("blocked/count.json")
      // NB: A file where the parent directory should be makes every write fail, even as root.
      try bytes("").write(to: directory.file("blocked"))
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      #expect($count.saveError != nil)
      #expect(count == 1)
      await #expect(throws: (any Error).self) { try await $count.save() }

      try FileManager.default.removeItem(at: directory.file("blocked"))
      try await $count.save()
      #expect($count.saveError == nil)
      #expect(fileText(url) == "1")
    }
  }

  @Test func directoryInPlaceOfTheFileIsALoadAndSaveError() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("count.json")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      @Shared(.fileStorage(url)) var count = 5
      #expect(count == 5)
      #expect($count.loadError != nil)
      $count.withLock { $0 = 6 }
      scheduler.advance()
      #expect($count.saveError != nil)
    }
  }

  /// A file whose name is as long as a name may be (255 bytes: 82 characters of three bytes
  /// each here, and `.json`) is written, and locked: the names of its temporary and lock
  /// files, longer, are cut short to fit.
  @Test(arguments: [false, true])
  func fileWithTheLongestNameIsWritten(isCoordinated: Bool) async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file(String(repeating: "日", count: 83) + ".json")
      #expect(url.lastPathComponent.utf8.count == 254)
      let count =
        isCoordinated
        ? Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
        : Shared(wrappedValue: 0, .fileStorage(url))
      count.withLock { $0 = 1 }
      try await count.save()
      #expect(count.saveError == nil)
      #expect(fileText(url) == "1")
      #expect(try temporaryFiles(in: directory) == [])
    }
  }
}

/// Runs `body` with real-disk file storage driven by a manual scheduler, in a fresh
/// temporary directory; pending writes are flushed before the directory is removed.
///
/// The storage's pending writes are its own: a program-wide flush made by another test
/// running in parallel does not write them. Coordinated keys wait at most `lockTimeout` for
/// a lock held elsewhere.
func withDiskStorage(
  lockTimeout: Duration = FileStorage.defaultLockTimeout,
  _ body: (FileStorage, ManualWriteScheduler, TemporaryDirectory) async throws -> Void
) async throws {
  let scheduler = ManualWriteScheduler()
  let storage = FileStorage.fileSystem(
    scheduler: scheduler,
    lockTimeout: lockTimeout,
    pendingWrites: PendingWrites()
  )
  .countingWrites()
  try await withTemporaryDirectory { directory in
    defer { storage.flushPendingWritesAndWait() }
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      try await body(storage, scheduler, directory)
    }
  }
}

func inode(of url: URL) throws -> UInt64 {
  try #require(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64)
}
