import FlagsKit
import SharingDependencies
import SharingPostgres
import Testing

/// The flags on the in-memory stand-in of PostgreSQL that tests use by default.
@Suite struct FeatureFlagsTests {
  @Dependency(\.defaultPostgresDatabase) var database

  @Test func setFlagsAreCommittedAndListedByName() throws {
    #expect(FeatureFlags().listing == "No flags.")
    try FeatureFlags().set("dark-mode", isOn: false)
    let committed = try FeatureFlags().set("beta", isOn: true)
    #expect(committed == ["beta": true, "dark-mode": false])
    #expect(FeatureFlags.listing(committed) == "beta: on\ndark-mode: off")
    #expect(FeatureFlags().flags == committed)
  }

  @Test func flagSetOnAnotherMachineIsPlayedBack() throws {
    let flags = FeatureFlags()
    try database.simulateExternalWrite(["beta": true], forKey: "feature-flags")
    #expect(flags.flags == ["beta": true])
  }

  @Test func setStartsFromTheFlagsStoredMeanwhile() throws {
    let flags = FeatureFlags()
    try flags.set("beta", isOn: true)
    try database.simulateExternalWrite(["beta": true, "search": true], forKey: "feature-flags")
    try flags.set("beta", isOn: false)
    #expect(database.storedJSON(forKey: "feature-flags")?.contains(#""search":true"#) == true)
  }

  @Test func changesNameEachFlagThatDiffers() {
    let changes = FeatureFlags.changes(
      from: ["beta": true, "old": true, "same": false],
      to: ["beta": false, "new": true, "same": false]
    )
    #expect(changes == ["beta: off", "new: on", "old: removed"])
  }

  @Test func removingAllFlagsKeepsARowThatCannotBeReadAside() async throws {
    try database.simulateExternalWrite(json: #"{"beta": 1}"#, forKey: FeatureFlags.key)
    #expect(FeatureFlags().loadError is PostgresDecodingError)

    try await FeatureFlags.removeAll()

    #expect(database.storedJSON(forKey: FeatureFlags.key) == "{}")
    let kept = database.storedKeys.filter { $0.hasPrefix("feature-flags.corrupt-") }
    #expect(kept.count == 1)
    #expect(kept.first.flatMap { database.storedJSON(forKey: $0) } == #"{"beta": 1}"#)
    #expect(FeatureFlags().flags == [:])
  }

  @Test(arguments: [
    (
      #"{"beta": 1}"#,
      #""beta" in row 'feature-flags' of table 't' is not true or false."#
    ),
    (
      #"[true]"#,
      "row 'feature-flags' of table 't' is not a JSON object of flags that are true or false."
    ),
  ])
  func rowThatCannotBeReadIsDescribedWithAWayForward(json: String, problem: String) throws {
    // The cases of one test share its dependencies: each has a database of its own.
    let database = PostgresDatabase.inMemory()
    try withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      try database.simulateExternalWrite(json: json, forKey: FeatureFlags.key)
      let error = try #require(FeatureFlags().loadError)
      #expect(
        FlagsProblem(error, table: "t").description
          == problem + " Correct the row, or remove every flag with 'flags reset' (the row is"
          + " then kept as 'feature-flags.corrupt-<time>')."
      )
    }
  }

  @Test func messageOfManyLinesIsOneLine() {
    let error = MultilineError(
      description:
        "server closed the connection unexpectedly\n\tThis probably means the server terminated"
        + " abnormally\n\tbefore or while processing the request.\n"
    )
    #expect(
      FlagsProblem(error, table: "t").description
        == "server closed the connection unexpectedly. This probably means the server"
        + " terminated abnormally before or while processing the request."
    )
  }

  @Test func unreachableDatabaseIsALoadError() async {
    await withDependencies {
      $0.defaultPostgresDatabase = .server("host=/nonexistent/flags")
    } operation: {
      let flags = FeatureFlags()
      await flags.load()
      #expect(flags.loadError is PostgresError)
    }
  }
}

/// An error whose description spans lines, as libpq's messages do.
private struct MultilineError: Error, CustomStringConvertible {
  let description: String
}
