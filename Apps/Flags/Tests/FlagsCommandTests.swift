import AppTestSupport
import Foundation
import PostgresTestSupport
import Testing

/// The built `flags`, run as a user would run it, against a throwaway PostgreSQL cluster.
@Suite(.serialized) struct FlagsCommandTests {
  /// The options naming the test cluster and a table of the test's own.
  private func database() async throws -> [String] {
    let table = "flags_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    return ["--database", try await PostgresCluster.shared().connectionString, "--table", table]
  }

  @Test func setFlagsAreListed() async throws {
    try await withTemporaryDirectory { directory in
      let flags = try Program("flags")
      let database = try await database()
      let set = try await flags.run(database + ["set", "beta", "on"], in: directory)
      _ = try await flags.run(database + ["set", "dark-mode", "off"], in: directory)
      let list = try await flags.run(database + ["list"], in: directory)
      #expect(set.status == 0)
      #expect(set.output == "beta: on\n")
      #expect(list.output == "beta: on\ndark-mode: off\n")
    }
  }

  @Test func twoWatchersSeeASetFromAThirdProcess() async throws {
    try await withTemporaryDirectory { directory in
      let flags = try Program("flags")
      let database = try await database()
      let watchers = try (0..<2).map { _ in try flags.start(database + ["watch"], in: directory) }
      for watcher in watchers {
        await watcher.waitForOutput("the watch to start") { $0.contains("Watching") }
      }
      let set = try await flags.run(database + ["set", "beta", "on"], in: directory)
      #expect(set.status == 0)
      for watcher in watchers {
        await watcher.waitForOutput("the flag set by another process") {
          $0.contains("Watching for changes (Ctrl-C to stop)…\nbeta: on\n")
        }
        watcher.send(SIGTERM)
        _ = await watcher.finish()
      }
    }
  }

  @Test func setsFromManyProcessesAtOnceAllLand() async throws {
    try await withTemporaryDirectory { directory in
      let flags = try Program("flags")
      let database = try await database()
      let sets = try (0..<6).map {
        try flags.start(database + ["set", "flag-\($0)", "on"], in: directory)
      }
      for set in sets { #expect(await set.finish().status == 0) }
      let list = try await flags.run(database + ["list"], in: directory)
      #expect(list.output == (0..<6).map { "flag-\($0): on\n" }.joined())
    }
  }

  @Test func unreachableDatabaseIsARuntimeError() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("flags").run(
        ["--database", "host=/nonexistent/flags", "list"],
        in: directory
      )
      #expect(run.status == 1)
      #expect(run.errorOutput.hasPrefix("flags: Cannot read the flags: connection to server"))
    }
  }

  @Test func badCommandLineExitsWithUsageStatus() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("flags").run(["set", "beta", "maybe"], in: directory)
      #expect(run.status == 64)
      #expect(run.errorOutput.hasPrefix("flags: 'maybe' is neither 'on' nor 'off'."))
    }
  }

  @Test func helpPrintsTheUsage() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("flags").run(["--help"], in: directory)
      #expect(run.status == 0)
      #expect(run.output.hasPrefix("Usage: flags"))
    }
  }
}
