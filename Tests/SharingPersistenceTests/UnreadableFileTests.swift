import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// A file that exists but that its user cannot read is never overwritten: its bytes and its
/// permissions stay as they are.
@Suite struct UnreadableFileTests {
  /// A second process, as a user who cannot read the file, since root reads every file.
  @Test func unreadableFileIsNeverOverwritten() async throws {
    try await withTemporaryDirectory { directory in
      // NB: Open to every user, so that only the file's own permissions keep it unread.
      #expect(chmod(directory.url.path, 0o777) == 0)
      let url = directory.file("count.json")
      try bytes("5").write(to: url)
      #expect(chmod(url.path, 0o000) == 0)
      let run = try await Probe.run(["file-unreadable", url.path])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardError.contains("load: Error Domain=NSPOSIXErrorDomain Code=13"))
      #expect(run.standardError.contains("save: The file at \(url.path) exists but cannot be read"))
      #expect(fileText(url) == "5")
      #expect(
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0
      )
      #expect(try temporaryFiles(in: directory) == [])
    }
  }

  /// Once the file is removed, the value is written again. (Through the key alone: a shared
  /// value would play the removal back, and go back to its default.)
  @Test func removedUnreadableFileIsWrittenAgain() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("settings.json")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      let key = FileStorageKey<Int>.fileStorage(url)
      let loaded = await withCheckedContinuation { loaded in
        key.load(
          context: .userInitiated,
          continuation: LoadContinuation("load") { loaded.resume(returning: $0) }
        )
      }
      #expect(throws: (any Error).self) { try loaded.get() }
      #expect(throws: (any Error).self) { try save(1, with: key) }
      try FileManager.default.removeItem(at: url)
      try save(1, with: key)
      #expect(fileText(url) == "1")
    }
  }

  private func save(_ value: Int, with key: FileStorageKey<Int>) throws {
    let result = Locked<Result<Void, any Error>?>(nil)
    key.save(
      value,
      context: .userInitiated,
      continuation: SaveContinuation("save") { saved in
        result.withLock { $0 = saved }
      }
    )
    try #require(result.withLock { $0 }).get()
  }
}
