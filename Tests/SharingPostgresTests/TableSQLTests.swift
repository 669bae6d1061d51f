import PostgresTestSupport
import Testing

@testable import SharingPostgres

/// The SQL a table's statements are made of.
struct TableSQLTests {
  @Test func keysReachTheServerAsWrittenInTheNotificationsArray() async throws {
    let cluster = try await PostgresCluster.shared()
    let connection = try Connection(cluster.connectionString, timeout: .seconds(60))
    // A quote or a backslash followed by a combining mark is one Character, two scalars.
    let keys = ["plain", "quo\"te", "back\\slash", "\"\u{301}x", "\\\u{301}", "{a,b}", " "]
    let literal = try TableSQL(table: "t").notify(keys, atOnce: true, listener: nil)
      .parameters[0]
    let elements = try connection.execute("SELECT unnest($1::text[])", [literal])
    #expect(elements == keys.map { [$0] })
  }
}
