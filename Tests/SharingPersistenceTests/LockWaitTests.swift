import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// How long a coordinated key waits for a lock another program holds: at most the storage's
/// `lockTimeout`, after which the change, or the load, fails with an error naming the file
/// and the wait, and memory keeps its value.
@Suite struct LockWaitTests {
  @Test func aChangeBehindALockHeldPastTheTimeoutIsASaveErrorAndChangesNothing() async throws {
    try await withDiskStorage(lockTimeout: .milliseconds(500)) { _, _, directory in
      let url = directory.file("count.json")
      let count = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      count.withLock { $0 = 1 }
      let held = try HeldLock(directory.file(".count.json.lock"))

      let waited = await withoutHangingOnThreadOfItsOwn("withLock", unblock: held.release) {
        ContinuousClock().measure { count.withLock { $0 += 1 } }
      }

      #expect(waited >= .milliseconds(450))
      #expect(waited < .seconds(20))
      #expect(count.wrappedValue == 1)
      #expect(fileText(url) == "1")
      let error = try #require(count.saveError)
      #expect("\(error)".contains(directory.file(".count.json.lock").path))
      #expect("\(error)".contains("held it for longer than 0.5 seconds"))

      held.release()
      count.withLock { $0 += 1 }
      #expect(count.wrappedValue == 2)
      #expect(fileText(url) == "2")
      #expect(count.saveError == nil)
    }
  }

  @Test func aLoadBehindALockHeldPastTheTimeoutIsALoadErrorAndKeepsTheValue() async throws {
    try await withDiskStorage(lockTimeout: .milliseconds(500)) { _, _, directory in
      let url = directory.file("count.json")
      try bytes("3").write(to: url)
      let count = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      let held = try HeldLock(directory.file(".count.json.lock"))

      let start = ContinuousClock.now
      await withoutHanging("load()", unblock: held.release) {
        await #expect(throws: (any Error).self) { try await count.load() }
      }
      let waited = ContinuousClock.now - start

      #expect(waited >= .milliseconds(450))
      #expect(waited < .seconds(20))
      #expect(count.wrappedValue == 3)
      let error = try #require(count.loadError)
      #expect("\(error)".contains(directory.file(".count.json.lock").path))
      #expect("\(error)".contains("held it for longer than 0.5 seconds"))

      held.release()
      try await count.load()
      #expect(count.wrappedValue == 3)
      #expect(count.loadError == nil)
    }
  }

  /// Its load fails, and watching the file, which reads it without the lock (a whole file:
  /// writes replace it by renaming), plays its value back.
  @Test func aValueCreatedBehindALockHeldPastTheTimeoutIsCreated() async throws {
    try await withDiskStorage(lockTimeout: .milliseconds(500)) { _, _, directory in
      let url = directory.file("count.json")
      try bytes("3").write(to: url)
      let held = try HeldLock(directory.file(".count.json.lock"))

      let waited = await withoutHangingOnThreadOfItsOwn("Creating the value", unblock: held.release)
      {
        ContinuousClock().measure {
          _ = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
        }
      }

      #expect(waited >= .milliseconds(450))
      #expect(waited < .seconds(20))
    }
  }

  /// Each change given up leaves a thread waiting in `flock` until the lock is released: the
  /// next change takes its wait over, rather than adding one.
  @Test func aLockHeldForeverKeepsOneThreadWaitingHoweverOftenItIsAskedFor() async throws {
    try await withDiskStorage(lockTimeout: .milliseconds(100)) { _, _, directory in
      let url = directory.file("count.json")
      let count = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      count.withLock { $0 = 1 }
      let held = try HeldLock(directory.file(".count.json.lock"))

      await withoutHangingOnThreadOfItsOwn("withLock", unblock: held.release) {
        for _ in 1...5 { count.withLock { $0 += 1 } }
      }
      #expect(count.saveError != nil)
      #expect(held.waiterCount == 1)

      held.release()
      await expectEventually("the waiting thread done") { held.waiterCount == 0 }
      count.withLock { $0 += 1 }
      #expect(count.wrappedValue == 2)
      #expect(fileText(url) == "2")
    }
  }

  @Test func aLockReleasedWithinTheTimeoutIsTakenAndTheChangeStartsFromTheFile() async throws {
    try await withDiskStorage(lockTimeout: .seconds(60)) { _, _, directory in
      let url = directory.file("count.json")
      let count = Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      count.withLock { $0 = 1 }
      let held = try HeldLock(directory.file(".count.json.lock"))
      // NB: The holder makes its change and releases the lock on a thread of its own, as soon
      //     as the change waits: paced by the task pool, which other tests may keep busy for
      //     long, it could hold the lock past the wait.
      let sawTheChangeWait = Locked(false)
      Thread.detachNewThread {
        let deadline = ContinuousClock.now + .seconds(60) * ThreadSanitizer.timeScale
        while held.waiterCount != 1, ContinuousClock.now < deadline { usleep(1_000) }
        sawTheChangeWait.withLock { $0 = held.waiterCount == 1 }
        try? bytes("5").write(to: url)
        held.release()
      }

      await withoutHangingOnThreadOfItsOwn("withLock", unblock: held.release) {
        count.withLock { $0 += 1 }
      }

      #expect(sawTheChangeWait.withLock { $0 }, "the change never waited for the lock")
      #expect(count.wrappedValue == 6)
      #expect(fileText(url) == "6")
      #expect(count.saveError == nil)
    }
  }
}
