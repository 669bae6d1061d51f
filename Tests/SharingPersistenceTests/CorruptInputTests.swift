import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// Hostile files on the real disk: nothing crashes or hangs, the failure is a `loadError`, and
/// no byte of the file is lost.
@Suite struct CorruptInputTests {
  @Test(arguments: BadFile.all)
  func undecodableFileIsALoadErrorAndIsKept(_ bad: BadFile) async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("settings.json")
      try bad.contents.write(to: url)
      do {
        @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
        #expect(settings == Settings(name: "default", isOn: false))
        #expect($settings.loadError != nil)
        #expect((try? Data(contentsOf: url)) == bad.contents)

        $settings.withLock { $0.isOn = true }
        storage.flushPendingWritesAndWait()
      }
      let preserved = try #require(try corruptFiles(of: url, in: directory).first)
      #expect(try Data(contentsOf: preserved) == bad.contents)
      let saved = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
      #expect(saved == Settings(name: "default", isOn: true))
    }
  }

  /// 50 MB of valid JSON loads, and is written back whole.
  @Test func hugeValidFileLoads() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("settings.json")
      // NB: Encoding and decoding 50 MB take tens of seconds under ThreadSanitizer.
      let (loadedCount, loadedWithoutError, saved) = try await onThreadOfItsOwn {
        let name = String(repeating: "x", count: 50_000_000)
        try JSONEncoder().encode(Settings(name: name, isOn: false)).write(to: url)
        @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
        let loaded = (settings.name.utf8.count, $settings.loadError == nil)
        $settings.withLock { $0.isOn = true }
        storage.flushPendingWritesAndWait()
        let saved = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
        return (loaded.0, loaded.1, saved)
      }
      #expect(loadedCount == 50_000_000)
      #expect(loadedWithoutError)
      #expect(saved.isOn && saved.name.utf8.count == 50_000_000)
    }
  }

  /// 50 MB of JSON with its last byte missing is kept whole before the file is overwritten.
  @Test func hugeInvalidFileIsKept() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("settings.json")
      // NB: Encoding 50 MB and failing to decode it take tens of seconds under
      //     ThreadSanitizer.
      let (bytes, loadFailed) = try await onThreadOfItsOwn {
        let name = String(repeating: "x", count: 50_000_000)
        let bytes = try JSONEncoder().encode(Settings(name: name, isOn: false)).dropLast()
        try bytes.write(to: url)
        @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
        let loadFailed = $settings.loadError != nil
        $settings.withLock { $0.isOn = true }
        storage.flushPendingWritesAndWait()
        return (bytes, loadFailed)
      }
      #expect(loadFailed)
      let preserved = try #require(try corruptFiles(of: url, in: directory).first)
      #expect(try Data(contentsOf: preserved) == bytes)
    }
  }

  // MARK: Files that are not regular files
  //
  // The tests run as root, which reads any regular file whatever its permissions, so
  // "unreadable" is made by the kind of file instead: a FIFO (whose opening blocks until a
  // writer comes), a directory, a loop of symbolic links, and a dangling symbolic link.
  // (UnreadableFileTests covers permissions, from a process that is not root.)

  /// A FIFO cannot be read as a file: it is a load error, and it is never replaced.
  @Test func fifoInPlaceOfTheFileDoesNotBlockAndIsLeftAlone() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("settings.json")
      #expect(mkfifo(url.path, 0o644) == 0)
      // NB: If opening blocks, a writer opened after the deadline releases it.
      let unblock = Task.detached {
        try await Task.sleep(for: .seconds(10))
        let writer = open(url.path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
      }
      defer { unblock.cancel() }
      let start = ContinuousClock.now
      @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
      try #require(ContinuousClock.now - start < .seconds(5), "deadlock: opening the FIFO blocked")
      #expect(settings.name == "default")
      #expect($settings.loadError != nil)
      $settings.withLock { $0.isOn = true }
      storage.flushPendingWritesAndWait()
      #expect("\($settings.saveError.map { "\($0)" } ?? "")".contains("cannot be read"))
      var info = stat()
      #expect(lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)

      // NB: Removing the FIFO is a change of the file, which beats the failed change, as any
      //     change of the file does: nothing is left to write at exit, once the test's
      //     directory is removed, which would make it again.
      try FileManager.default.removeItem(at: url)
      await expectEventually("the removal played back") { !settings.isOn }
    }
  }

  @Test func directoryInPlaceOfTheFileIsLeftAlone() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("settings.json")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try bytes("keep me").write(to: url.appendingPathComponent("inside.txt"))
      @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
      #expect($settings.loadError != nil)
      $settings.withLock { $0.isOn = true }
      storage.flushPendingWritesAndWait()
      #expect($settings.saveError != nil)
      #expect(settings.isOn)
      #expect(fileText(url.appendingPathComponent("inside.txt")) == "keep me")
      #expect(try temporaryFiles(in: directory) == [])

      // NB: Removing the directory is a change of the file, which beats the failed change, as
      //     any change of the file does: nothing is left to write at exit, once the test's
      //     directory is removed, which would make it again.
      try FileManager.default.removeItem(at: url)
      await expectEventually("the removal played back") { !settings.isOn }
    }
  }

  /// A loop of symbolic links cannot be read: it is a load error, and it is never replaced.
  @Test func symbolicLinkLoopIsALoadErrorAndIsLeftAlone() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("settings.json")
      let other = directory.file("other.json")
      try FileManager.default.createSymbolicLink(at: url, withDestinationURL: other)
      try FileManager.default.createSymbolicLink(at: other, withDestinationURL: url)
      @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
      #expect($settings.loadError != nil)
      $settings.withLock { $0.isOn = true }
      storage.flushPendingWritesAndWait()
      #expect($settings.saveError != nil)
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == other.path
      )

      // NB: Removing the loop is a change of the file, which beats the failed change, as any
      //     change of the file does: nothing is left to write at exit, once the test's
      //     directory is removed, which would make it again.
      try FileManager.default.removeItem(at: url)
      await expectEventually("the removal played back") { !settings.isOn }
    }
  }

  @Test func danglingSymbolicLinkIsAMissingFile() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("settings.json")
      try FileManager.default.createSymbolicLink(
        at: url,
        withDestinationURL: directory.file("nowhere/settings.json")
      )
      @Shared(.fileStorage(url)) var settings = Settings(name: "default", isOn: false)
      #expect(settings.name == "default")
      #expect($settings.loadError == nil)
    }
  }

  /// A URL that names no file (`https://…`) is a programmer error, reported: its path is
  /// never read or written as if it were a file's, and load and save fail with an error
  /// that says why.
  @Test func urlOfNoFileIsReportedAndNeverWritten() async throws {
    try await withDiskStorage { storage, _, directory in
      let local = directory.file("settings.json")
      let url = try #require(URL(string: "https://example.com\(local.path)"))
      var made: Shared<Settings>?
      withKnownIssue {
        made = Shared(wrappedValue: Settings(name: "default", isOn: false), .fileStorage(url))
      } matching: {
        $0.description.contains("is not a file URL")
      }
      let settings = try #require(made)
      #expect(settings.loadError.map { "\($0)" }?.contains("is not a file URL") == true)
      settings.withLock { $0.isOn = true }
      storage.flushPendingWritesAndWait()
      #expect(settings.saveError.map { "\($0)" }?.contains("is not a file URL") == true)
      #expect(!FileManager.default.fileExists(atPath: local.path))
    }
  }
}

/// Bytes that do not decode as ``Settings``.
struct BadFile: Sendable, CustomTestStringConvertible {
  let name: String
  let contents: Data

  var testDescription: String { name }

  static let all: [BadFile] = {
    var random = SeededRandom(seed: 0xBAD_F11E)
    let valid = #"{"isOn":true,"name":"Blob"}"#
    return [
      BadFile(name: "truncated JSON", contents: bytes(String(valid.prefix(15)))),
      BadFile(name: "wrong types", contents: bytes(#"{"isOn":"yes","name":5}"#)),
      BadFile(name: "missing key", contents: bytes(#"{"isOn":true}"#)),
      BadFile(name: "null", contents: bytes("null")),
      BadFile(
        name: "binary garbage",
        contents: Data((0..<4_096).map { _ in random.next() }.map(UInt8.init(truncatingIfNeeded:)))
      ),
      BadFile(name: "NUL bytes", contents: Data(count: 1_024)),
      BadFile(
        name: "invalid UTF-8",
        contents: Data(#"{"isOn":true,"name":""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8)
      ),
      BadFile(
        name: "100 000 nested arrays",
        contents: bytes(String(repeating: "[", count: 100_000))
      ),
      BadFile(name: "huge number", contents: bytes(#"{"isOn":1e999999,"name":"Blob"}"#)),
    ]
  }()
}

/// The files holding preserved bytes of `url`.
func corruptFiles(of url: URL, in directory: TemporaryDirectory) throws -> [URL] {
  try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    .filter { $0.hasPrefix("\(url.lastPathComponent).corrupt-") }
    .sorted()
    .map { directory.file($0) }
}
