import SharingCore
import TabsKit
import Testing

/// The `tabs` prompt: commands typed on the tabs.
@Suite struct TabsSessionTests {
  var session = TabsSession(tabs: TabsFeature(stats: Shared(value: Stats())))

  @Test mutating func countingOnTheCounterTabShowsOnTheProfileTab() {
    _ = session.handle("+")
    _ = session.handle("+")
    let reply = session.handle("tab profile")
    #expect(
      reply.output == """
         Counter  [Profile]
          Current count: 3
          Max count: 3
          Min count: 0
          Total number of counts: 3
          reset
        """
    )
  }

  @Test mutating func primeAlertIsShownOnceThenDismissed() {
    _ = session.handle("+")
    _ = session.handle("+")
    let prime = session.handle("prime")
    let show = session.handle("show")
    #expect(prime.output.contains("👍 The number 2 is prime!"))
    #expect(!show.output.contains("prime!"))
    #expect(session.tabs.counter.alert == nil)
  }

  @Test mutating func commandOfTheOtherTabIsRefusedWithAHint() {
    let reply = session.handle("reset")
    #expect(reply.error == "That command is on the profile tab: type 'tab profile' first.")
    #expect(reply.output.isEmpty)
    #expect(session.tabs.stats == Stats())
  }

  @Test mutating func unknownCommandBlankLineAndQuit() {
    #expect(session.handle("jump").error == "Unknown command 'jump'. Type 'help' for the commands.")
    let blank = session.handle("   ")
    #expect(blank.output.isEmpty && blank.error == nil && !blank.quits)
    #expect(session.handle("quit").quits)
  }

  @Test(arguments: [
    ("tab counter", TabsCommand.select(.counter)), ("PROFILE", .select(.profile)),
    ("+", .increment), ("decrement", .decrement), ("prime", .isPrime), ("reset", .reset),
    ("show", .show), ("?", .help), ("exit", .quit),
  ])
  func commandsAreRecognised(line: String, command: TabsCommand) throws {
    #expect(try TabsCommand(parsing: line) == command)
  }
}
