import AppTestSupport
import Foundation
import Testing

/// The built `tabs`, given commands through a pipe.
@Suite struct TabsCommandTests {
  @Test func pipedCommandsRunAndEndAtTheEndOfInput() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("tabs").run(
        [],
        in: directory,
        input: "+\n+\n+\nprime\nreset\ntab profile\n"
      )
      #expect(run.status == 0)
      #expect(
        run.output.contains("> prime\n[Counter]  Profile\n  Count: 3\n  👍 The number 3 is prime!\n")
      )
      #expect(run.output.hasSuffix("  Total number of counts: 4\n  reset\n> \n"))
      #expect(
        run.errorOutput == "tabs: That command is on the profile tab: type 'tab profile' first.\n"
      )
    }
  }

  @Test func ctrlCAtThePromptExitsWith130() async throws {
    try await withTemporaryDirectory { directory in
      let tabs = try Program("tabs").start([], in: directory)
      tabs.write("+\n")
      await tabs.waitForOutput("the second prompt") { $0.hasSuffix("Count: 1\n  + - prime\n> ") }
      tabs.send(SIGINT)
      let run = await tabs.finish()
      #expect(run.status == 130)
      #expect(!run.isSignalled)
      #expect(run.errorOutput.isEmpty)
    }
  }

  @Test func argumentIsAUsageError() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("tabs").run(["--fast"], in: directory)
      #expect(run.status == 64)
      #expect(
        run.errorOutput == """
          Error: Unknown option '--fast'.
          Usage: tabs
            See 'tabs --help' for more information.

          """
      )
    }
  }
}
