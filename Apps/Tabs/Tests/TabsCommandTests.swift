import AppTestSupport
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
}
