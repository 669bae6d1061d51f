import AppTestSupport
import Foundation
import Testing

/// The built `counter`, run as a user would run it, against real files in a temporary
/// directory.
@Suite struct CounterCommandTests {
  @Test func countsSurviveBetweenRunsInTheUsersDefaults() async throws {
    try await withTemporaryDirectory { directory in
      let counter = try Program("counter")
      _ = try await counter.run([], in: directory)
      let increment = try await counter.run(["increment", "5"], in: directory)
      let show = try await counter.run([], in: directory)

      #expect(increment.output == "Count: 5\n")
      #expect(show.status == 0)
      #expect(show.output == "Count: 5\nLaunched 3 times\n")
      // NB: Foundation keeps the defaults of 'counter' in $XDG_CONFIG_HOME/counter.plist.
      #expect(FileManager.default.fileExists(atPath: directory.file("config/counter.plist").path))
    }
  }

  @Test func storeOptionKeepsTheValuesInTheGivenFile() async throws {
    try await withTemporaryDirectory { directory in
      let counter = try Program("counter")
      let store = directory.file("state/counter.plist").path
      try FileManager.default.createDirectory(
        at: directory.file("state"),
        withIntermediateDirectories: true
      )
      _ = try await counter.run(["increment", "2", "--store", store], in: directory)
      let reset = try await counter.run(["--store", store, "reset"], in: directory)
      let show = try await counter.run(["--store", store], in: directory)

      #expect(reset.output == "Count: 0\n")
      #expect(show.output == "Count: 0\nLaunched 3 times\n")
      #expect(FileManager.default.fileExists(atPath: store))
      #expect(!FileManager.default.fileExists(atPath: directory.file("config/counter.plist").path))
    }
  }

  @Test func storePathWithoutPlistIsKeptWithPlistAddedAsTheHelpSays() async throws {
    try await withTemporaryDirectory { directory in
      let counter = try Program("counter")
      let increment = try await counter.run(["--store", "mystore.txt", "increment"], in: directory)
      let help = try await counter.run(["--help"], in: directory)

      #expect(increment.status == 0)
      #expect(FileManager.default.fileExists(atPath: directory.file("mystore.txt.plist").path))
      #expect(!FileManager.default.fileExists(atPath: directory.file("mystore.txt").path))
      #expect(help.output.contains("'.plist' is added to a path"))
    }
  }

  @Test(arguments: ["lots", "-3"])
  func badAmountExitsWithUsageStatusAndSaysItMustBePositive(amount: String) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("counter").run(["increment", amount], in: directory)
      #expect(run.status == 64)
      #expect(run.output.isEmpty)
      #expect(
        run.errorOutput == """
          Error: The amount to add must be a positive integer, such as 5; '\(amount)' is not.
          Usage: counter [--store <path>] [<command>]
            See 'counter --help' for more information.

          """
      )
    }
  }

  @Test func helpPrintsTheUsageAndCountsNoLaunch() async throws {
    try await withTemporaryDirectory { directory in
      let counter = try Program("counter")
      let help = try await counter.run(["--help"], in: directory)
      let show = try await counter.run([], in: directory)
      #expect(help.status == 0)
      #expect(help.output.hasPrefix("Usage: counter"))
      #expect(show.output.hasSuffix("Launched 1 time\n"))
    }
  }

  @Test func overflowIsARuntimeError() async throws {
    try await withTemporaryDirectory { directory in
      let counter = try Program("counter")
      _ = try await counter.run(["increment", "\(Int.max - 1)"], in: directory)
      let run = try await counter.run(["increment", "2"], in: directory)
      #expect(run.status == 1)
      #expect(run.errorOutput.hasPrefix("counter: The count would exceed"))
    }
  }
}
