import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// What swift-sharing does on the real file system, which its own tests expect: a watched
/// file that does not exist is created empty, again after it is deleted or moved away, and a
/// deletion cancels the write waiting for the throttle.
@Suite struct FileStorageLiveTests {
  @Test func watchingAFileThatDoesNotExistCreatesItEmpty() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("new/users.json")
      @Shared(.fileStorage(url)) var users = ["blob"]
      #expect(users == ["blob"])
      #expect(fileText(url) == "")
      #expect($users.loadError == nil)
    }
  }

  @Test func aDeletedFileIsCreatedEmptyAndCancelsTheThrottledWrite() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("users.json")
      @Shared(.fileStorage(url)) var users = ["blob"]
      $users.withLock { $0 = ["blob jr"] }
      $users.withLock { $0 = ["blob sr"] }
      try FileManager.default.removeItem(at: url)
      await expectEventually("the deletion is played back") { users == ["blob"] }
      await expectEventually("the file is created empty again") { fileText(url) == "" }
      scheduler.advance(by: .seconds(1))
      #expect(fileText(url) == "")
      #expect(users == ["blob"])
    }
  }

  @Test func aFileMovedAwayIsCreatedEmptyAndMovingItBackIsPlayedBack() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("users.json")
      let elsewhere = directory.file("elsewhere.json")
      try bytes(#"["blob"]"#).write(to: url)
      @Shared(.fileStorage(url)) var users: [String] = []
      #expect(users == ["blob"])
      try FileManager.default.moveItem(at: url, to: elsewhere)
      await expectEventually("the move is played back") { users == [] }
      await expectEventually("the file is created empty again") { fileText(url) == "" }
      #expect(rename(elsewhere.path, url.path) == 0)
      await expectEventually("moving it back is played back") { users == ["blob"] }
    }
  }

  @Test func swiftSharingStubBytesAreEmptiedWhenLoaded() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("count.json")
      try bytes("co.pointfree.Sharing.FileStorage.stub").write(to: url)
      @Shared(.fileStorage(url)) var count = 0
      #expect(count == 0)
      #expect($count.loadError == nil)
      #expect(fileText(url) == "")
    }
  }
}
