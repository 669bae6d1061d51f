import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// What an atomic write on the real disk keeps of the file it replaces: the symbolic links
/// that lead to it, its permission bits and its owner.
@Suite struct DiskFileSystemTests {
  @Test func writeThroughASymbolicLinkReplacesTheFileItLeadsTo() async throws {
    try await withDiskStorage { _, _, directory in
      let target = directory.file("private/secrets.json")
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try bytes("1").write(to: target)
      #expect(chmod(target.path, 0o600) == 0)
      let link = directory.file("secrets.json")
      try FileManager.default.createSymbolicLink(
        atPath: link.path,
        withDestinationPath: "private/secrets.json"
      )

      @Shared(.fileStorage(link)) var secret = 0
      #expect(secret == 1)
      $secret.withLock { $0 = 2 }
      try await $secret.save()

      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
          == "private/secrets.json"
      )
      #expect(fileText(target) == "2")
      #expect(try permissions(of: target) == 0o600)
      #expect(leftoverFiles(in: directory) == ["private/secrets.json", "secrets.json"])
    }
  }

  @Test func writeFollowsAChainOfSymbolicLinks() async throws {
    try await withDiskStorage { _, _, directory in
      let target = directory.file("data/count.json")
      let first = directory.file("count.json")
      let second = directory.file("links/count.json")
      try FileManager.default.createDirectory(
        at: directory.file("links"),
        withIntermediateDirectories: true
      )
      try FileManager.default.createSymbolicLink(
        atPath: first.path,
        withDestinationPath: "links/count.json"
      )
      try FileManager.default.createSymbolicLink(
        atPath: second.path,
        withDestinationPath: target.path
      )

      @Shared(.fileStorage(first)) var count = 0
      $count.withLock { $0 = 7 }
      try await $count.save()

      #expect(fileText(target) == "7")
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: first.path)
          == "links/count.json"
      )
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: second.path) == target.path)
    }
  }

  @Test func writeThroughADanglingSymbolicLinkCreatesTheFileItPointsTo() async throws {
    try await withDiskStorage { _, _, directory in
      let target = directory.file("later/count.json")
      let link = directory.file("count.json")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
      @Shared(.fileStorage(link)) var count = 0
      $count.withLock { $0 = 4 }
      try await $count.save()
      #expect(fileText(target) == "4")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    }
  }

  @Test(arguments: [0o600, 0o640, 0o444, 0o755])
  func writeKeepsThePermissionBits(_ mode: Int) async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("count.json")
      try bytes("1").write(to: url)
      #expect(chmod(url.path, mode_t(mode)) == 0)
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 2 }
      try await $count.save()
      #expect(fileText(url) == "2")
      #expect(try permissions(of: url) == mode)
    }
  }

  @Test(arguments: [0o600, 0o640])
  func keptUndecodableBytesHaveTheFilesPermissionBits(_ mode: Int) async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("secrets.json")
      try bytes("not json").write(to: url)
      #expect(chmod(url.path, mode_t(mode)) == 0)
      do {
        @Shared(.fileStorage(url)) var secret = 0
        $secret.withLock { $0 = 2 }
        storage.flushPendingWritesAndWait()
      }
      let kept = try #require(try corruptFiles(of: url, in: directory).first)
      #expect(try permissions(of: kept) == mode)
      #expect(try permissions(of: url) == mode)
    }
  }

  /// The first write of each file removes its temporary files that killed writes left behind,
  /// once a minute old; the directory is listed once for all its files.
  @Test func theFirstWriteOfEachFileRemovesItsAbandonedTemporaryFiles() async throws {
    try await withDiskStorage { _, _, directory in
      let names = ["a.json", "b.json"]
      for name in names {
        let abandoned = directory.file(".\(name).\(UUID().uuidString).tmp")
        try bytes("{").write(to: abandoned)
        try FileManager.default.setAttributes(
          [.modificationDate: Date().addingTimeInterval(-120)],
          ofItemAtPath: abandoned.path
        )
      }
      // NB: Young enough to belong to a write in progress in another process.
      let inProgress = ".b.json.\(UUID().uuidString).tmp"
      try bytes("{").write(to: directory.file(inProgress))
      for name in names {
        @Shared(.fileStorage(directory.file(name))) var value = 0
        $value.withLock { $0 = 1 }
        try await $value.save()
      }
      #expect(try temporaryFiles(in: directory) == [inProgress])
    }
  }

  /// Only a privileged process can give a file to another owner; elsewhere the write makes
  /// the file its own, as any atomic replacement does.
  @Test(.enabled(if: geteuid() == 0, "needs a privileged process"))
  func writeKeepsTheOwner() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("count.json")
      try bytes("1").write(to: url)
      #expect(chown(url.path, 1_234, 5_678) == 0)
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 2 }
      try await $count.save()
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      #expect(attributes[.ownerAccountID] as? Int == 1_234)
      #expect(attributes[.groupOwnerAccountID] as? Int == 5_678)
    }
  }
}

/// Every file under `directory`, but not the directories.
private func leftoverFiles(in directory: TemporaryDirectory) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: directory.url.path)
  return (enumerator?.allObjects as? [String] ?? [])
    .filter { path in
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: directory.file(path).path,
        isDirectory: &isDirectory
      )
      return exists && !isDirectory.boolValue
    }
    .sorted()
}

/// The permission bits of a file.
private func permissions(of url: URL) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
  return try #require(attributes[.posixPermissions] as? Int)
}
