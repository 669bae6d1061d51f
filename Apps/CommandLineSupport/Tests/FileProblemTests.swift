import AppTestSupport
import CommandLineSupport
import Foundation
import Testing

/// The reasons given for errors the file system really returns.
@Suite struct FileProblemTests {
  @Test func fileWhereADirectoryShouldBeIsNamed() async throws {
    try await withTemporaryDirectory { directory in
      try Data().write(to: directory.file("notes"))
      let file = directory.file("notes/lists/todos.json")
      let error = try #require(throws: (any Error).self) {
        try FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(),
          withIntermediateDirectories: true
        )
      }
      let reason = FileProblem.reason(for: error, at: file)
      #expect(reason == "\(directory.file("notes").path) is a file, not a directory")
    }
  }

  @Test func directoryInPlaceOfAFileIsNamed() async throws {
    try await withTemporaryDirectory { directory in
      let error = try #require(throws: (any Error).self) {
        try FileHandle(forReadingFrom: directory.url).readToEnd()
      }
      let reason = FileProblem.reason(for: error, at: directory.url)
      #expect(reason == "it is a directory, not a file")
    }
  }

  @Test func systemErrorIsDescribedInWords() async throws {
    try await withTemporaryDirectory { directory in
      let missing = directory.file("missing.txt")
      let error = try #require(throws: (any Error).self) { try Data(contentsOf: missing) }
      #expect(FileProblem.reason(for: error, at: missing) == "no such file or directory")
      #expect(
        FileProblem.reason(for: POSIXError(.EACCES), at: missing) == "permission denied"
      )
    }
  }
}
