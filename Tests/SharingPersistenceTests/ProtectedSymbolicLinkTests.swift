import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A symbolic link another user planted in a directory anyone may write to (as `/tmp` is:
/// sticky and world-writable) is not followed, to read, write or lock, unless it belongs to
/// the directory's owner: the rule of Linux's `fs.protected_symlinks`, applied whether or not
/// the system enables it. Elsewhere, links are followed (dotfiles).
///
/// Giving a link to another user takes a privileged process: the tests that need one run as
/// root (as CI does) and are skipped, saying so, for another user.
@Suite struct ProtectedSymbolicLinkTests {
  /// The user the tests give links and directories to.
  private static let nobody: uid_t = 65_534

  @Test(.asRoot)
  func aLinkAnotherUserPlantedInASharedDirectoryIsNotWrittenThrough() async throws {
    try await withDiskStorage { _, _, directory in
      let (link, target) = try plantLink(in: directory, linkOwner: Self.nobody)
      @Shared(.fileStorage(link)) var value = 0
      $value.withLock { $0 = 1 }
      await #expect(throws: (any Error).self) { try await $value.save() }

      #expect(!FileManager.default.fileExists(atPath: target.path))
      let error = try #require($value.saveError)
      #expect("\(error)".contains("The symbolic link at \(link.path) was not followed"))
      #expect("\(error)".contains("uid \(Self.nobody)"))
    }
  }

  @Test(.asRoot)
  func aLinkAnotherUserPlantedInASharedDirectoryIsNotReadThrough() async throws {
    try await withDiskStorage { _, _, directory in
      let (link, target) = try plantLink(in: directory, linkOwner: Self.nobody)
      try bytes("5").write(to: target)
      @Shared(.fileStorage(link)) var value = 0
      #expect(value == 0)
      #expect($value.loadError.map { "\($0)" }?.contains("was not followed") == true)
    }
  }

  @Test(.asRoot)
  func aCoordinatedChangeThroughAPlantedLinkCreatesNothingWhereItLeads() async throws {
    try await withDiskStorage { _, _, directory in
      let (link, target) = try plantLink(in: directory, linkOwner: Self.nobody)
      @Shared(.fileStorage(link, .coordinated)) var value = 0
      $value.withLock { $0 = 1 }

      #expect(value == 0)
      let kept = try FileManager.default.contentsOfDirectory(
        atPath: target.deletingLastPathComponent().path
      )
      #expect(kept.isEmpty)
      let error = try #require($value.saveError)
      #expect("\(error)".contains("The symbolic link at \(link.path) was not followed"))
    }
  }

  /// The directory's owner could replace anything in it anyway: its links are followed.
  @Test(.asRoot)
  func aLinkOfTheSharedDirectorysOwnerIsFollowed() async throws {
    try await withDiskStorage { _, _, directory in
      let (link, target) = try plantLink(
        in: directory,
        linkOwner: Self.nobody,
        directoryOwner: Self.nobody
      )
      @Shared(.fileStorage(link, .coordinated)) var value = 0
      $value.withLock { $0 = 1 }
      #expect($value.saveError == nil)
      #expect(fileText(target) == "1")
    }
  }

  @Test(.asRoot, arguments: [0o777, 0o1755])
  func anotherUsersLinkInADirectoryNotBothStickyAndWorldWritableIsFollowed(
    mode: Int
  ) async throws {
    try await withDiskStorage { _, _, directory in
      let (link, target) = try plantLink(
        in: directory,
        linkOwner: Self.nobody,
        directoryMode: mode_t(mode)
      )
      @Shared(.fileStorage(link)) var value = 0
      $value.withLock { $0 = 1 }
      try await $value.save()
      #expect(fileText(target) == "1")
    }
  }

  @Test func aLinkOfTheProcessInASharedDirectoryIsFollowed() async throws {
    try await withDiskStorage { _, _, directory in
      let (link, target) = try plantLink(in: directory, linkOwner: geteuid())
      @Shared(.fileStorage(link)) var value = 0
      $value.withLock { $0 = 1 }
      try await $value.save()
      #expect(fileText(target) == "1")
    }
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only as root, the user who can give files to another user.
  fileprivate static var asRoot: Self {
    .enabled(if: geteuid() == 0, "needs root, to give the link and its directory to another user")
  }
}

/// Makes `shared`, a directory with `directoryMode` (sticky and world-writable by default, as
/// `/tmp`) owned by `directoryOwner`, and in it a link `a.json`, owned by `linkOwner`, to a
/// file of `private`, a directory only this process's user may write.
///
/// - Returns: The link, and the file it leads to, which does not exist.
private func plantLink(
  in directory: TemporaryDirectory,
  linkOwner: uid_t,
  directoryOwner: uid_t = geteuid(),
  directoryMode: mode_t = 0o1777
) throws -> (link: URL, target: URL) {
  let shared = directory.file("shared")
  let privateDirectory = directory.file("private")
  for url in [shared, privateDirectory] {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
  }
  try #require(chmod(privateDirectory.path, 0o700) == 0)
  try #require(chmod(shared.path, directoryMode) == 0)
  if directoryOwner != geteuid() {
    try #require(chown(shared.path, directoryOwner, directoryOwner) == 0)
  }
  let link = shared.appendingPathComponent("a.json")
  let target = privateDirectory.appendingPathComponent("victim.json")
  try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
  if linkOwner != geteuid() {
    try #require(lchown(link.path, linkOwner, linkOwner) == 0)
  }
  return (link, target)
}
