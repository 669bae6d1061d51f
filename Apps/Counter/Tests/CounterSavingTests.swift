import AppTestSupport
import Foundation
import Testing

/// What `counter` says when its values cannot be written or read, run as a user would.
@Suite struct CounterSavingTests {
  @Test func storeThatCannotBeWrittenIsAnErrorAndNoCountIsShown() async throws {
    try await withTemporaryDirectory { directory in
      try directory.replace("blocker", with: "")
      let store = directory.file("blocker/counter.plist").path
      let run = try await Program("counter").run(["increment", "--store", store], in: directory)
      expectNotSaved(run, because: "blocker is not a folder")
    }
  }

  @Test func homeThatCannotBeWrittenIsAnError() async throws {
    try await withTemporaryDirectory { directory in
      try directory.replace("blocker", with: "")
      let home = directory.file("blocker/home").path
      let run = try await Program("counter").run(
        [],
        in: directory,
        environment: ["HOME": home, "XDG_CONFIG_HOME": ""]
      )
      expectNotSaved(run, because: "blocker is not a folder")
    }
  }

  @Test func unreadableStoreIsKeptAsideAndReported() async throws {
    try await withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(
        at: directory.file("config"),
        withIntermediateDirectories: true
      )
      try directory.replace("config/counter.plist", with: "<plist><dict><key>count</key>")
      let run = try await Program("counter").run([], in: directory)
      #expect(run.status == 0)
      #expect(run.output == "Count: 0\nLaunched 1 time\n")
      #expect(run.errorOutput.hasPrefix("counter: warning: The user defaults file "))
      #expect(run.errorOutput.split(separator: "\n").count == 1)
      let kept = try FileManager.default.contentsOfDirectory(atPath: directory.file("config").path)
        .filter { $0.hasPrefix("counter.plist.corrupt-") }
      #expect(kept.count == 1)
      let bytes = try String(
        contentsOf: directory.file("config/\(try #require(kept.first))"),
        encoding: .utf8
      )
      #expect(bytes == "<plist><dict><key>count</key>")
    }
  }

  /// Checks that a run failed to save, said why in one line, and showed no count.
  private func expectNotSaved(
    _ run: ProgramRun,
    because reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(run.status == 1, sourceLocation: sourceLocation)
    #expect(run.output.isEmpty, sourceLocation: sourceLocation)
    #expect(
      run.errorOutput.hasPrefix("counter: The count was not saved."),
      sourceLocation: sourceLocation
    )
    #expect(run.errorOutput.contains(reason), sourceLocation: sourceLocation)
    #expect(run.errorOutput.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
  }
}
