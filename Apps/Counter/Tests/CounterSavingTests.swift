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
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(
        run.errorOutput
          == "counter: The count was not saved to \(store):"
          + " \(directory.file("blocker").path) is a file, not a directory.\n"
      )
    }
  }

  @Test func showingTheCountFromAHomeThatCannotBeWrittenSucceedsWithAWarning() async throws {
    try await withTemporaryDirectory { directory in
      try directory.replace("blocker", with: "")
      let home = ["HOME": directory.file("blocker/home").path, "XDG_CONFIG_HOME": ""]
      let counter = try Program("counter")
      let show = try await counter.run([], in: directory, environment: home)
      let increment = try await counter.run(["increment"], in: directory, environment: home)

      let store = directory.file("blocker/home/.config/counter.plist").path
      let reason = "\(directory.file("blocker").path) is a file, not a directory"
      #expect(show.status == 0)
      #expect(show.output == "Count: 0\n")
      #expect(
        show.errorOutput
          == "counter: warning: This launch was not counted: it cannot be saved to \(store):"
          + " \(reason).\n"
      )
      #expect(increment.status == 1)
      #expect(increment.output.isEmpty)
      #expect(increment.errorOutput == "counter: The count was not saved to \(store): \(reason).\n")
    }
  }

  @Test func folderThatTakesNoFilesIsAnErrorEvenWhenFoundationSaysNothing() async throws {
    try await withTemporaryDirectory { directory in
      // No file can be created in /sys/kernel, by root either; Foundation writes the user
      // defaults there without a word, and they are lost.
      let config = ["XDG_CONFIG_HOME": "/sys/kernel"]
      let counter = try Program("counter")
      let increment = try await counter.run(["increment"], in: directory, environment: config)
      let show = try await counter.run([], in: directory, environment: config)

      let reasons = ["permission denied", "read-only file system"]
      #expect(increment.status == 1)
      #expect(increment.output.isEmpty)
      #expect(
        reasons.map { "counter: The count was not saved to /sys/kernel/counter.plist: \($0).\n" }
          .contains(increment.errorOutput),
        "\(increment.errorOutput)"
      )
      #expect(show.status == 0)
      #expect(show.output == "Count: 0\n")
      #expect(
        reasons.map {
          "counter: warning: This launch was not counted: it cannot be saved to"
            + " /sys/kernel/counter.plist: \($0).\n"
        }
        .contains(show.errorOutput),
        "\(show.errorOutput)"
      )
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
}
