import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `.fileStorage(url, .coordinated)` in one process: each `withLock` locks the file, starts
/// from what it holds, and writes before returning. Several processes: see
/// ``CoordinatedProcessTests``.
@Suite struct CoordinatedFileStorageTests {
  private let url = URL(fileURLWithPath: "/coordinated/count.json")

  @Test func eachChangeIsWrittenBeforeWithLockReturns() {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      $count.withLock { $0 += 1 }
      $count.withLock { $0 += 1 }
      #expect(text(storage.contents(of: url)) == "2")
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test func aChangeStartsFromWhatAnotherProgramWrote() {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      // NB: Not played back until the scheduler runs: only the change's own read sees it.
      storage.simulateExternalWrite(bytes("10"), to: url)
      #expect(count == 0)
      $count.withLock { $0 += 1 }
      #expect(count == 11)
      #expect(text(storage.contents(of: url)) == "11")
      scheduler.advance()
      #expect(count == 11)
    }
  }

  @Test func aDerivedValueChangesThroughTheLock() {
    struct Tally: Codable, Equatable, Sendable {
      var count = 0
      var label = ""
    }
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url, .coordinated)) var tally = Tally()
      storage.simulateExternalWrite(bytes(#"{"count":4,"label":"x"}"#), to: url)
      $tally.count.withLock { $0 += 1 }
      #expect(tally == Tally(count: 5, label: "x"))
    }
  }

  @Test func valuesSeeEachCoordinatedChangeOnce() async throws {
    try await withDependencies {
      $0.defaultFileStorage = .inMemory
    } operation: {
      let count = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      try await withWatchdog {
        var iterator = count.values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        count.withLock { $0 += 1 }
        #expect(await iterator.next() == 1)
        count.withLock { $0 += 1 }
        #expect(await iterator.next() == 2)
        // NB: Had a change been delivered twice, the next element would repeat it.
        count.withLock { $0 += 1 }
        #expect(await iterator.next() == 3)
      }
    }
  }

  @Test func saveWritesNothingOverAnotherProgramsChange() async throws {
    let scheduler = ManualWriteScheduler()
    let storage = FileStorage.inMemory(scheduler: scheduler)
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      $count.withLock { $0 += 1 }
      storage.simulateExternalWrite(bytes("10"), to: url)
      try await $count.save()
      #expect(text(storage.contents(of: url)) == "10")
    }
  }

  @Test func usingAFileWithAndWithoutCoordinationIsReported() {
    withDependencies {
      $0.defaultFileStorage = .inMemory
    } operation: {
      @Shared(.fileStorage(url, .coordinated)) var coordinated = 0
      withKnownIssue {
        @Shared(.fileStorage(url)) var plain = 0
        _ = plain
      }
      _ = coordinated
    }
  }

  @Test func changesFromManyThreadsLoseNothing() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      let count = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for _ in 0..<25 { count.withLock { $0 += 1 } }
      }
      #expect(count.wrappedValue == 100)
      #expect(fileText(url) == "100")
    }
  }

  @Test func theLockIsTakenOnAFileBesideTheFile() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      $count.withLock { $0 += 1 }
      let before = try inode(of: directory.file(".count.json.lock"))
      $count.withLock { $0 += 1 }
      #expect(fileText(url) == "2")
      // NB: The data file is replaced by every write; the lock file stays the same file.
      #expect(try inode(of: directory.file(".count.json.lock")) == before)
    }
  }

  @Test func aFileThatCannotBeDecodedIsNeverReplaced() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      try bytes("{not json").write(to: url)
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      #expect($count.loadError != nil)
      $count.withLock { $0 += 1 }
      $count.withLock { $0 += 1 }
      #expect(count == 0)
      #expect(fileText(url) == "{not json")
      let error = try #require($count.saveError)
      #expect("\(error)".contains("cannot be decoded"))
      let kept = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        .filter { $0.hasPrefix("count.json.corrupt-") }
      #expect(kept.count == 1)
      #expect(kept.first.map { fileText(directory.file($0)) } == "{not json")
    }
  }

  @Test func aLockThatCannotBeTakenIsASaveErrorNamingTheCause() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      // NB: A directory in place of the lock file: it cannot be opened to be locked.
      try FileManager.default.createDirectory(
        at: directory.file(".count.json.lock"),
        withIntermediateDirectories: true
      )
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      $count.withLock { $0 += 1 }
      #expect(count == 0)
      // NB: Empty, as watching it created it: nothing was written.
      #expect(fileText(url) == "")
      let error = try #require($count.saveError)
      #expect("\(error)".contains(directory.file(".count.json.lock").path))
      #expect("\(error)".contains("\(POSIXError(.EISDIR))"))
    }
  }

  @Test func aLoadWaitsForAChangeInProgress() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      try bytes("1").write(to: url)
      // NB: Another process's change in progress: an exclusive lock on the lock file.
      let descriptor = open(directory.file(".count.json.lock").path, O_RDONLY | O_CREAT, 0o644)
      #expect(descriptor >= 0)
      defer { close(descriptor) }
      #expect(flock(descriptor, LOCK_EX) == 0)
      let loaded = Locked<Int?>(nil)
      let done = DispatchSemaphore(value: 0)
      let storage = storage
      DispatchQueue.global().async {
        withDependencies {
          $0.defaultFileStorage = storage
        } operation: {
          @Shared(.fileStorage(url, .coordinated)) var count = 0
          loaded.withLock { $0 = count }
        }
        done.signal()
      }
      #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
      try bytes("2").write(to: url)
      flock(descriptor, LOCK_UN)
      done.wait()
      #expect(loaded.withLock { $0 } == 2)
    }
  }
}
