import Foundation
import Testing

@testable import SharingPersistence

/// Where the bytes of an undecodable file are kept: under a name nothing else has.
struct CorruptFileTests {
  @Test func aNameTakenByWhatCannotBeReadAsAFileIsNotUsed() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    for name in firstNames(of: "todos.json") {
      try FileManager.default.createDirectory(
        at: directory.file(name),
        withIntermediateDirectories: false
      )
    }
    let preserved = try CorruptFile.preserve(Data("[1,".utf8), of: url, in: DiskFileSystem())
    #expect(preserved.lastPathComponent.hasSuffix("Z-2"))
    #expect(try Data(contentsOf: preserved) == Data("[1,".utf8))
  }

  /// A symbolic link whose file does not exist takes its name too: the bytes are not
  /// written through it, to wherever it leads.
  @Test func keptBytesAreNeverWrittenThroughALinkInPlaceOfTheirName() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let target = directory.file("elsewhere")
    for name in firstNames(of: "todos.json") {
      try FileManager.default.createSymbolicLink(
        at: directory.file(name),
        withDestinationURL: target
      )
    }
    let preserved = try CorruptFile.preserve(Data("[1,".utf8), of: url, in: DiskFileSystem())
    #expect(preserved.lastPathComponent.hasSuffix("Z-2"))
    #expect(try Data(contentsOf: preserved) == Data("[1,".utf8))
    #expect(!FileManager.default.fileExists(atPath: target.path))
  }

  /// The first name the bytes of `name` are kept under, for each of the two seconds the
  /// name may be drawn in.
  private func firstNames(of name: String) -> [String] {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let now = Date()
    return [now, now.addingTimeInterval(1)].map { "\(name).corrupt-\(formatter.string(from: $0))" }
  }
}
