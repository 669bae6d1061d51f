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
