import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Synchronization
import Testing

/// Integration tests: the real file system, real time and inotify. Each waits for the
/// expected state with a generous deadline instead of sleeping.
@Suite struct FileStorageWatchingTests {
  @Test func externalWriteIsPlayedBack() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("is-on.json")
      @Shared(.fileStorage(url)) var isOn = true
      @Shared(.fileStorage(url)) var alsoIsOn = true
      #expect(isOn == true)
      try bytes("false").write(to: url)
      await expectEventually("the external write") { isOn == false }
      #expect(alsoIsOn == false)
    }
  }

  /// A file reached through a symbolic link is watched where the link leads, which is where
  /// writes go.
  @Test func externalWriteToTheFileALinkLeadsToIsPlayedBack() async throws {
    try await withLiveFileSystem { directory in
      let target = directory.file("elsewhere/count.json")
      let link = directory.file("count.json")
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try bytes("1").write(to: target)
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
      @Shared(.fileStorage(link)) var count = 0
      #expect(count == 1)
      $count.withLock { $0 = 2 }
      try await $count.save()
      #expect(fileText(target) == "2")
      try bytes("3").write(to: target)
      await expectEventually("the external write") { count == 3 }
    }
  }

  @Test func externalDeleteRestoresDefault() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("count.json")
      try bytes("5").write(to: url)
      @Shared(.fileStorage(url)) var count = 0
      #expect(count == 5)
      try FileManager.default.removeItem(at: url)
      await expectEventually("the default value") { count == 0 }
      try bytes("7").write(to: url)
      await expectEventually("the re-created file") { count == 7 }
    }
  }

  @Test func renameOverIsPlayedBack() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("name.json")
      @Shared(.fileStorage(url)) var name = "Blob"
      let replacement = directory.file("name.json.new")
      try bytes(#""Blob Jr.""#).write(to: replacement)
      #expect(rename(replacement.path, url.path) == 0)
      await expectEventually("the renamed file") { name == "Blob Jr." }
    }
  }

  @Test func fileInMissingDirectoryIsWatchedOnceCreated() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("later/nested/count.json")
      @Shared(.fileStorage(url)) var count = 0
      try FileManager.default.createDirectory(
        at: directory.file("later/nested"),
        withIntermediateDirectories: true
      )
      try bytes("3").write(to: url)
      await expectEventually("the file in the new directory") { count == 3 }
    }
  }

  @Test func ownWritesAreNotEchoed() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("count.json")
      let key = FileStorageKey<Int>.fileStorage(url)
      let received = Locked<[Int?]>([])
      key.load(context: .initialValue(0), continuation: LoadContinuation("load") { _ in })
      let subscription = key.subscribe(
        context: .initialValue(0),
        subscriber: SharedSubscriber(
          callback: { result in received.withLock { $0.append(try? result.get()) } },
          onLoading: { _ in }
        )
      )
      defer { subscription.cancel() }
      for value in 1...3 {
        await withCheckedContinuation { done in
          key.save(
            value,
            context: .userInitiated,
            continuation: SaveContinuation("save") { _ in done.resume() }
          )
        }
      }
      // NB: Written beside the file and renamed over it, so the watcher never reads it half
      //     written (Foundation's '.atomic' option on Linux goes through a folder in /tmp).
      let staged = directory.file("count.json.staged")
      try bytes("42").write(to: staged)
      #expect(rename(staged.path, url.path) == 0)
      await expectEventually("the external write") { received.withLock { $0.contains(42) } }
      #expect(received.withLock { $0 } == [42])
    }
  }

  @Test func explicitSaveLandsAtOnce() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("count.json")
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      $count.withLock { $0 = 2 }
      try await $count.save()
      #expect(fileText(url) == "2")
    }
  }
}

/// Runs `body` with the live file system as the default storage, in a fresh temporary
/// directory; pending writes are flushed before the directory is removed.
func withLiveFileSystem(_ body: (TemporaryDirectory) async throws -> Void) async throws {
  try await withTemporaryDirectory { directory in
    defer { FileStorage.fileSystem.flushPendingWritesAndWait() }
    try await withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      try await body(directory)
    }
  }
}
