import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

@testable import SharingPostgres

/// A write the server refuses is made again, with a growing delay, until it lands: for
/// every key, whenever it was created.
@Suite struct FailedWriteRetryTests {
  @Test func aFailedWriteOfAKeyCreatedAfterTheListenerConnectedIsRetried() async throws {
    let table = try await TestTable()
    try await withDependencies {
      $0.defaultPostgresDatabase = table.database(throttle: .zero)
    } operation: {
      @Shared(.postgres("r-first")) var first = 0
      $first.withLock { $0 = 1 }
      await eventually("r-first is written") { (try? table.storedJSON("r-first")) == "1" }
      @Shared(.postgres("r-late")) var late = 0
      let lateKey: PostgresKey<Int> = .postgres("r-late")
      // NB: Every insert and update fails while the constraint is there; existing rows stay.
      _ = try table.cluster.psql(
        "ALTER TABLE \(table.name) ADD CONSTRAINT refuses_writes CHECK (false) NOT VALID"
      )
      $first.withLock { $0 = 2 }
      $late.withLock { $0 = 2 }
      await eventually("both writes fail") { $first.saveError != nil && $late.saveError != nil }
      _ = try table.cluster.psql("ALTER TABLE \(table.name) DROP CONSTRAINT refuses_writes")
      let state = {
        "r-first \(first), \(status($first)); r-late \(late), \(status($late)); stored "
          + "\(String(describing: try? table.storedJSON("r-first"))), "
          + "\(String(describing: try? table.storedJSON("r-late"))); r-late's record: "
          + lateKey.row.stateDescription
      }
      try await eventually("both are written again", state) {
        try table.storedJSON("r-first") == "2" && table.storedJSON("r-late") == "2"
      }
      await eventually("both save errors clear", state) {
        $first.saveError == nil && $late.saveError == nil
      }
    }
  }
}
