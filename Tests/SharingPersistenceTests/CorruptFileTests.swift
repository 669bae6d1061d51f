import Foundation
import Testing

@testable import SharingPersistence

/// Where the bytes of an undecodable file are kept: under a name nothing else has.
struct CorruptFileTests {
  @Test func aNameTakenByWhatCannotBeReadAsAFileIsNotUsed() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    // Whichever of two seconds the name is drawn in, its first choice is a directory.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let now = Date()
    for date in [now, now.addingTimeInterval(1)] {
      try FileManager.default.createDirectory(
        at: directory.file("todos.json.corrupt-\(formatter.string(from: date))"),
        withIntermediateDirectories: false
      )
    }
    let preserved = try CorruptFile.preserve(Data("[1,".utf8), of: url, in: DiskFileSystem())
    #expect(preserved.lastPathComponent.hasSuffix("Z-2"))
    #expect(try Data(contentsOf: preserved) == Data("[1,".utf8))
  }
}
