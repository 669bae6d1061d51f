import AppTestSupport
import Foundation
import Testing

/// The built `sysmon`, reading fake files in a temporary directory.
@Suite struct SysmonCommandTests {
  @Test func oncePrintsOneLineOfReadings() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      let run = try await Program("sysmon").run(
        ["once", "--source", directory.url.path],
        in: directory
      )
      #expect(run.status == 0)
      #expect(
        run.output == "load 1.00 2.00 3.00 │ up 1d 01:01:01 │ memory 1.00 of 2.00 GiB available\n"
      )
      #expect(run.errorOutput.isEmpty)
    }
  }

  @Test(arguments: [["once"], [], ["--seconds", "600"]])
  func missingSourceIsOneLineAndARuntimeErrorInEveryMode(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let source = directory.file("nothing-here")
      let run = try await Program("sysmon").run(command + ["--source", source.path], in: directory)
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(run.errorOutput == "sysmon: Cannot read \(source.path): no such file or directory.\n")
    }
  }

  @Test(arguments: [["once"], ["--seconds", "600"]])
  func readingThatCannotBeMadeEndsWatchingAsItEndsOnce(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      try FileManager.default.removeItem(at: directory.file("uptime"))
      let run = try await Program("sysmon").run(
        command + ["--source", directory.url.path],
        in: directory
      )
      #expect(run.status == 1)
      #expect(
        run.output == "load 1.00 2.00 3.00 │ up unavailable │ memory 1.00 of 2.00 GiB available\n"
      )
      #expect(
        run.errorOutput
          == "sysmon: Cannot read \(directory.file("uptime").path): no such file or directory.\n"
      )
    }
  }

  @Test func readingThatFailsWhileWatchingIsToldOnceThenShownAgainWhenFixed() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      let watch = try Program("sysmon").start(
        ["--source", directory.url.path, "--interval", "0.02"],
        in: directory
      )
      await watch.waitForOutput("the first reading") { $0.contains("up 1d 01:01:01") }

      try directory.replace("uptime", with: "soon\n")
      await watch.waitForOutput("the failed reading") { $0.contains("up unavailable") }
      try directory.replace("uptime", with: "90062.25 1000.00\n")
      await watch.waitForOutput("the fixed reading") { $0.contains("up 1d 01:01:02") }

      watch.send(SIGINT)
      let run = await watch.finish()
      #expect(run.status == 130)
      #expect(!run.isSignalled)
      #expect(
        run.errorOutput
          == "sysmon: \(directory.file("uptime").path) is not in the expected format.\n"
      )
    }
  }

  @Test func directoryInPlaceOfAReadingIsNamed() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      try FileManager.default.removeItem(at: directory.file("uptime"))
      try FileManager.default.createDirectory(
        at: directory.file("uptime"),
        withIntermediateDirectories: false
      )
      let run = try await Program("sysmon").run(
        ["once", "--source", directory.url.path],
        in: directory
      )
      #expect(run.status == 1)
      #expect(run.output.contains("up unavailable"))
      #expect(
        run.errorOutput
          == "sysmon: Cannot read \(directory.file("uptime").path):"
          + " it is a directory, not a file.\n"
      )
    }
  }

  @Test func watchPrintsEachChangeUntilItsTimeIsUp() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      // NB: The test ends the program; its own deadline only has to outlast a slow start
      //     and the waits below, on a loaded machine and under ThreadSanitizer.
      let watch = try Program("sysmon").start(
        ["--source", directory.url.path, "--interval", "0.02", "--seconds", "600"],
        in: directory
      )
      await watch.waitForOutput("the first reading") { $0.contains("up 1d 01:01:01") }

      try directory.replace("uptime", with: "90062.25 1000.00\n")
      await watch.waitForOutput("the new uptime") { $0.contains("up 1d 01:01:02") }

      watch.send(SIGINT)
      let run = await watch.finish()
      #expect(run.status == 130)
      #expect(!run.isSignalled)
      #expect(
        run.output.hasSuffix(
          "load 1.00 2.00 3.00 │ up 1d 01:01:02 │ memory 1.00 of 2.00 GiB available\n"
        )
      )
    }
  }

  @Test func watchStopsAfterTheGivenSeconds() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      let run = try await Program("sysmon").run(
        ["--source", directory.url.path, "--seconds", "0.3", "--interval", "0.05"],
        in: directory,
        timeout: .seconds(30)
      )
      #expect(run.status == 0)
      #expect(run.output.contains("load 1.00 2.00 3.00"))
    }
  }

  @Test(arguments: [
    (["--cpu"], "Unknown option '--cpu'."),
    (
      ["--seconds", "0"],
      "'--seconds' must be a number of seconds above 0 and at most 86400 (a day); '0' is not."
    ),
  ])
  func badCommandLineIsAUsageError(arguments: [String], message: String) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("sysmon").run(arguments, in: directory)
      #expect(run.status == 64)
      #expect(
        run.errorOutput == """
          Error: \(message)
          Usage: sysmon [once] [--seconds <n>] [--interval <seconds>] [--source <directory>]
            See 'sysmon --help' for more information.

          """
      )
    }
  }
}
