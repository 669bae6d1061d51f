import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPostgres

/// A row deleted and inserted again is a new row to its holders: its versions are drawn from
/// the table's sequence, never from 1 again.
@Suite(.serialized) struct RowIdentityTests {
  @Test func rowDeletedAndInsertedAgainGetsVersionsAboveEveryOneBefore() async throws {
    let table = try await TestTable()
    let backend = ServerBackend(
      configuration: PostgresDatabase.Configuration(table.cluster.connectionString),
      sql: try TableSQL(table: table.name)
    )
    var written: Int64 = 0
    for value in 1...5 {
      written = try backend.write("count", json: Data("\(value)".utf8), keepsAside: false)
    }
    try table.cluster.psql(
      """
      BEGIN;
      DELETE FROM \(table.name) WHERE key = 'count';
      INSERT INTO \(table.name) (key, value) VALUES ('count', '42');
      COMMIT;
      """
    )
    let inserted = try #require(try backend.fetch("count"))
    #expect(inserted.json == Data("42".utf8))
    #expect(inserted.version > written)
    try table.cluster.psql("UPDATE \(table.name) SET value = '43' WHERE key = 'count'")
    let updated = try #require(try backend.fetch("count"))
    #expect(updated.version > inserted.version)
  }

  @Test func holderFollowsARowDeletedAndInsertedAgainInOneTransaction() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      for value in 1...5 {
        $count.withLock { $0 = value }
        try await $count.save()
      }
      try table.cluster.psql(
        """
        BEGIN;
        DELETE FROM \(table.name) WHERE key = 'count';
        INSERT INTO \(table.name) (key, value) VALUES ('count', '42');
        COMMIT;
        """
      )
      await eventually("the row inserted again", { "count \(count)" }) { count == 42 }
      try table.cluster.psql("UPDATE \(table.name) SET value = '43' WHERE key = 'count'")
      await eventually("its update", { "count \(count)" }) { count == 43 }
    }
  }

  /// A table made by the first release, whose versions counted from 1 in each row: its
  /// versions go on above every one it holds.
  @Test func tableOfTheFirstSchemaIsBroughtUpToDate() async throws {
    let table = try await TestTable()
    try table.cluster.psql(
      """
      CREATE TABLE \(table.name) (key text PRIMARY KEY, value jsonb NOT NULL,
        version bigint NOT NULL DEFAULT 1, updated_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO \(table.name) (key, value, version) VALUES ('count', '7', 90);
      """
    )
    let backend = ServerBackend(
      configuration: PostgresDatabase.Configuration(table.cluster.connectionString),
      sql: try TableSQL(table: table.name)
    )
    #expect(try backend.fetch("count") == StoredRow(json: Data("7".utf8), version: 90))
    #expect(try backend.write("count", json: Data("8".utf8), keepsAside: false) > 90)
  }
}
