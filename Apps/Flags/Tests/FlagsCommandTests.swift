import AppTestSupport
import Foundation
import PostgresTestSupport
import Testing

/// The built `flags`, run as a user would run it, against a throwaway PostgreSQL cluster.
@Suite(.serialized) struct FlagsCommandTests {
  /// The options naming the test cluster and a table of the test's own.
  private func database() async throws -> [String] {
    try await Table(in: PostgresCluster.shared()).options
  }

  /// A table of the test's own, in a cluster.
  private struct Table {
    let cluster: PostgresCluster
    let name = "flags_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

    init(in cluster: PostgresCluster) {
      self.cluster = cluster
    }

    /// The options of `flags` naming the cluster and the table.
    var options: [String] { ["--database", cluster.connectionString, "--table", name] }

    /// Replaces the JSON of the flags' row, as a person fixing it in SQL does.
    func storeFlags(json: String) throws {
      try cluster.psql("UPDATE \(name) SET value = '\(json)'::jsonb WHERE key = 'feature-flags'")
    }
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

  @Test func unreachableDatabaseIsARuntimeErrorInOneLine() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("flags").run(
        ["--database", "host=/nonexistent/flags", "list"],
        in: directory
      )
      #expect(run.status == 1)
      // libpq's words, which vary with its version, follow; libpq writes them on two lines.
      #expect(
        run.errorOutput.hasPrefix(
          "flags: Cannot read the flags: connection to server on socket"
            + " \"/nonexistent/flags/.s.PGSQL.5432\" failed: No such file or directory. Is "
        )
      )
      #expect(run.errorOutput.filter { $0 == "\n" || $0 == "\t" } == "\n")
    }
  }

  @Test func rowThatCannotBeReadIsOneLineWithAWayForwardAndResetKeepsIt() async throws {
    try await withTemporaryDirectory { directory in
      let flags = try Program("flags")
      let table = Table(in: try await PostgresCluster.shared())
      _ = try await flags.run(table.options + ["set", "beta", "on"], in: directory)
      try table.storeFlags(json: #"{"beta": 1}"#)

      let list = try await flags.run(table.options + ["list"], in: directory)
      let set = try await flags.run(table.options + ["set", "gamma", "on"], in: directory)
      let reset = try await flags.run(table.options + ["reset"], in: directory)
      let setAgain = try await flags.run(table.options + ["set", "gamma", "on"], in: directory)

      let message = """
        flags: Cannot read the flags: "beta" in row 'feature-flags' of table '\(table.name)' is \
        not true or false. Correct the row, or remove every flag with 'flags reset' (the row is \
        then kept as 'feature-flags.corrupt-<time>').

        """
      #expect(list.status == 1)
      #expect(list.output.isEmpty)
      #expect(list.errorOutput == message)
      #expect(set.status == 1)
      #expect(set.errorOutput == message)
      #expect(reset.status == 0)
      #expect(reset.output == "No flags.\n")
      #expect(setAgain.output == "gamma: on\n")
      #expect(
        try table.cluster.psql(
          "SELECT value FROM \(table.name) WHERE key LIKE 'feature-flags.corrupt-%'"
        ) == #"{"beta": 1}"#
      )
    }
  }

  @Test func watchSaysWhenTheRowGoesBadOrTheServerDownAndExitsWith130() async throws {
    let cluster = try await PostgresCluster.start()
    try await withTemporaryDirectory { directory in
      let flags = try Program("flags")
      let table = Table(in: cluster)
      _ = try await flags.run(table.options + ["set", "beta", "on"], in: directory)
      let watch = try flags.start(table.options + ["watch"], in: directory)
      await watch.waitForOutput("the watch to start") { $0.contains("Watching") }

      try table.storeFlags(json: #"{"beta": "yes"}"#)
      await watch.waitForOutput("the row that cannot be read", on: .standardError) {
        $0.contains(#"Cannot read the flags: "beta" in row 'feature-flags'"#)
      }
      try table.storeFlags(json: #"{"beta": false}"#)
      await watch.waitForOutput("the corrected row") { $0.hasSuffix("…\nbeta: off\n") }
      await cluster.stop()
      await watch.waitForOutput("the server going down", on: .standardError) {
        $0.split(separator: "\n").count >= 2
      }

      watch.send(SIGINT)
      let run = await watch.finish()
      #expect(run.status == 130)
      #expect(!run.isSignalled)
      // NB: A server going down may be told twice, as the connection is lost and as it is
      //     refused; each line is a problem that differs from the one before.
      let errors = run.errorOutput.split(separator: "\n")
      #expect(errors.count >= 2)
      #expect(errors.allSatisfy { $0.hasPrefix("flags: Cannot read the flags: ") })
      #expect(zip(errors, errors.dropFirst()).allSatisfy { $0 != $1 }, "\(errors)")
    }
    await cluster.remove()
  }

  @Test func badTableNameIsAUsageError() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("flags").run(
        ["--table", "bad table; drop", "list"],
        in: directory
      )
      #expect(run.status == 64)
      #expect(
        run.errorOutput == """
          Error: 'bad table; drop' is not a table name: use letters, digits and underscores, as \
          name or schema.name.
          Usage: flags [--database <connection>] [--table <name>] [<command>]
            See 'flags --help' for more information.

          """
      )
    }
  }

  @Test func badCommandLineExitsWithUsageStatus() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("flags").run(["set", "beta", "maybe"], in: directory)
      #expect(run.status == 64)
      #expect(
        run.errorOutput == """
          Error: 'maybe' is neither 'on' nor 'off'.
          Usage: flags [--database <connection>] [--table <name>] [<command>]
            See 'flags --help' for more information.

          """
      )
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
