import CLibPQ
import Foundation
import PostgresTestSupport
import Testing

@testable import SharingPostgres

/// The statements of every write and read are prepared once per connection, and run
/// unprepared where a pooler hands each transaction another server session.
@Suite(.serialized) struct PreparedStatementTests {
  @Test func aStatementIsPreparedOnceAndThenRunByName() async throws {
    let cluster = try await PostgresCluster.shared()
    let connection = try Connection(cluster.connectionString, timeout: .seconds(60))
    let sum = PreparedSQL("SELECT 1 + $1::int")
    #expect(try connection.run([Statement(sum, ["1"])])[0] == [["2"]])
    #expect(try connection.run([Statement(sum, ["2"])])[0] == [["3"]])
    let prepared = try connection.execute(
      "SELECT name, statement FROM pg_prepared_statements WHERE NOT from_sql"
    )
    #expect(prepared == [[sum.name, sum.text]])
    #expect(connection.preparesStatements)
  }

  @Test func aStatementPreparedInABatchThatFailsStaysPrepared() async throws {
    let cluster = try await PostgresCluster.shared()
    let connection = try Connection(cluster.connectionString, timeout: .seconds(60))
    let sum = PreparedSQL("SELECT 1 + $1::int")
    #expect(throws: PostgresError.self) {
      try connection.run([
        Statement("BEGIN"), Statement(sum, ["1"]), Statement("SELECT 1 / 0"), Statement("COMMIT"),
      ])
    }
    try connection.execute("ROLLBACK")
    #expect(try connection.run([Statement(sum, ["2"])])[0] == [["3"]])
    #expect(connection.preparesStatements)
  }

  @Test func aStatementTheSessionNoLongerHoldsRunsOnceUnprepared() async throws {
    let cluster = try await PostgresCluster.shared()
    let connection = try Connection(cluster.connectionString, timeout: .seconds(60))
    try connection.execute("CREATE TEMPORARY TABLE counted (n int)")
    let insert = PreparedSQL("INSERT INTO counted VALUES ($1::int) RETURNING n")
    _ = try connection.run([Statement(insert, ["1"])])
    try connection.execute("DEALLOCATE ALL")
    let inserted = try connection.run([
      Statement("BEGIN"), Statement(insert, ["2"]), Statement("COMMIT"),
    ])
    #expect(inserted[1] == [["2"]])
    #expect(try connection.execute("SELECT n FROM counted ORDER BY n") == [["1"], ["2"]])
    #expect(!connection.preparesStatements)
  }

  /// A plain write's `BEGIN` and `COMMIT` are prepared too: whichever of them the session
  /// lost, the write is committed once, and the connection is left out of any transaction.
  @Test(arguments: [TableSQL.begin, TableSQL.commit])
  func aWriteWhoseBeginOrCommitTheSessionLostIsCommittedOnce(lost: Statement) async throws {
    let cluster = try await PostgresCluster.shared()
    let connection = try Connection(cluster.connectionString, timeout: .seconds(60))
    try connection.execute("CREATE TEMPORARY TABLE counted (n int)")
    let insert = Statement("INSERT INTO counted VALUES ($1::int)", ["1"])
    _ = try connection.run([TableSQL.begin, insert, TableSQL.commit])
    try connection.execute("DEALLOCATE \(try #require(lost.preparedName))")
    _ = try connection.run([TableSQL.begin, Statement(insert.sql, ["2"]), TableSQL.commit])
    #expect(try connection.execute("SELECT n FROM counted ORDER BY n") == [["1"], ["2"]])
    #expect(PQtransactionStatus(connection.handle) == PQTRANS_IDLE)
    #expect(!connection.preparesStatements)
  }

  @Test func aStatementPreparedInTheSessionAnotherClientOfAPoolerUsesIsRunUnprepared()
    async throws
  {
    let cluster = try await PostgresCluster.shared()
    let bouncer = try await PgBouncer.start(for: cluster, poolSize: 1)
    let first = try Connection(bouncer.connectionString, timeout: .seconds(60))
    let second = try Connection(bouncer.connectionString, timeout: .seconds(60))
    let sum = PreparedSQL("SELECT 1 + $1::int")
    // Both clients share the pooler's one server session: the second prepares the statement
    // again there, which the server refuses as a duplicate.
    #expect(try first.run([Statement(sum, ["1"])])[0] == [["2"]])
    #expect(
      try second.run([Statement("BEGIN"), Statement(sum, ["2"]), Statement("COMMIT")])[1] == [["3"]]
    )
    #expect(try second.run([Statement(sum, ["3"])])[0] == [["4"]])
    #expect(try first.run([Statement(sum, ["4"])])[0] == [["5"]])
    #expect(!second.preparesStatements)
    await bouncer.stop()
  }
}
