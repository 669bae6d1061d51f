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

/// What a coordinated key does when something other than a regular file is at its lock
/// file's path, `.<name>.lock`: it is refused, with an error naming it, and never followed,
/// created through, or waited on.
///
/// A value created on the file still gets the file's value: the load that could not lock it
/// fails, and watching the file, which reads it without the lock (a whole file: writes
/// replace it by renaming), then plays it back. An explicit load reports the error.
@Suite struct LockFileTests {
  @Test func aFIFOInPlaceOfTheLockFileIsALoadAndSaveErrorRatherThanAHang() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("count.json")
      try bytes("1").write(to: url)
      let fifo = directory.file(".count.json.lock")
      try #require(mkfifo(fifo.path, 0o644) == 0)
      // NB: A writer opening the FIFO lets a reader blocked in 'open' return.
      let openForWriting: @Sendable () -> Void = {
        let descriptor = open(fifo.path, O_WRONLY | O_NONBLOCK)
        if descriptor >= 0 { close(descriptor) }
      }
      let count = await withoutHangingOnThreadOfItsOwn(
        "Creating the value",
        unblock: openForWriting
      ) {
        Shared(wrappedValue: 0, .fileStorage(url, .coordinated))
      }
      await withoutHanging("load()", unblock: openForWriting) {
        await #expect(throws: (any Error).self) { try await count.load() }
      }
      #expect(count.loadError.map { "\($0)" }?.contains("it is a FIFO") == true)
      let before = count.wrappedValue
      await withoutHangingOnThreadOfItsOwn("withLock", unblock: openForWriting) {
        count.withLock { $0 += 1 }
      }
      #expect(count.wrappedValue == before)
      #expect(fileText(url) == "1")
      let error = try #require(count.saveError)
      #expect("\(error)".contains(fifo.path))
      #expect("\(error)".contains("it is a FIFO, not a regular file"))
    }
  }

  @Test func aDirectoryInPlaceOfTheLockFileIsALoadError() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("count.json")
      try bytes("1").write(to: url)
      try FileManager.default.createDirectory(
        at: directory.file(".count.json.lock"),
        withIntermediateDirectories: false
      )
      @Shared(.fileStorage(url, .coordinated)) var count = 0
      await #expect(throws: (any Error).self) { try await $count.load() }
      #expect($count.loadError.map { "\($0)" }?.contains("it is a directory") == true)
    }
  }

  /// A user who can write the file's directory, but not `elsewhere`, plants the link: a
  /// process that may write `elsewhere` (root) must not create or lock a file there for them.
  @Test(arguments: [false, true])
  func aSymbolicLinkInPlaceOfTheLockFileIsNeverFollowed(targetExists: Bool) async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("a.json")
      let elsewhere = directory.file("elsewhere")
      try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
      #expect(chmod(elsewhere.path, 0o700) == 0)
      let target = elsewhere.appendingPathComponent("created-by-lock")
      if targetExists { try bytes("kept").write(to: target) }
      let lockFile = directory.file(".a.json.lock")
      try FileManager.default.createSymbolicLink(
        atPath: lockFile.path,
        withDestinationPath: target.path
      )

      @Shared(.fileStorage(url, .coordinated)) var value = 0
      await #expect(throws: (any Error).self) { try await $value.load() }
      #expect($value.loadError.map { "\($0)" }?.contains("it is a symbolic link") == true)
      $value.withLock { $0 = 1 }

      #expect(value == 0)
      // NB: Empty, as watching it created it: nothing was written.
      #expect(fileText(url) == "")
      #expect(fileText(target) == (targetExists ? "kept" : nil))
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: lockFile.path) == target.path
      )
      let error = try #require($value.saveError)
      #expect("\(error)".contains(lockFile.path))
      #expect("\(error)".contains("it is a symbolic link, not a regular file"))
    }
  }
}
