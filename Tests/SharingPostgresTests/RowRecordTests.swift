import Foundation
import SharingCore
import SharingDependencies
import SharingPostgres
import Testing

/// A key's row, as the write pipeline keeps it, on the in-memory stand-in.
@Suite struct RowRecordTests {
  /// A process started while the server is down holds its default; a change made to it then
  /// never overwrites the row the server holds: the row is loaded once the server is back,
  /// and the save error says why the change was not written.
  @Test func aChangeToAValueNeverLoadedDoesNotOverwriteTheStoredRow() async throws {
    let database = PostgresDatabase.inMemory(throttle: .zero)
    try database.simulateExternalWrite(json: #"{"a":1,"b":2,"c":3}"#, forKey: "flags")
    database.simulateOutage(true)
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("flags")) var flags: [String: Int] = [:]
      #expect($flags.loadError != nil)
      $flags.withLock { $0["d"] = 1 }
      database.simulateOutage(false)
      await eventually("the stored row is loaded") { flags == ["a": 1, "b": 2, "c": 3] }
      #expect(database.storedJSON(forKey: "flags") == #"{"a":1,"b":2,"c":3}"#)
      let error = try #require($flags.saveError.map { "\($0)" })
      #expect(error.contains("had not loaded"))
    }
  }

  /// `save()` right after a change the throttle wrote commits nothing more: every reader
  /// would fetch the value again.
  @Test func aSaveAfterAWrittenChangeCommitsNothingMore() async throws {
    let database = PostgresDatabase.inMemory(throttle: .zero)
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 1 }
      // NB: The row holds the change before its write has ended, which the save then follows.
      await database.flushPendingWrites()
      #expect(database.storedJSON(forKey: "count") == "1")
      // Identical bytes are skipped only while the watch is live: its listener's connection.
      database.waitForPlayback()
      try await $count.save()
      #expect(database.storedVersion(forKey: "count") == 1)
    }
  }

  /// Rows nobody holds any more, with nothing left to write, are let go: memory does not
  /// grow with every key ever used.
  @Test func rowsNobodyHoldsAreReleased() async {
    let database = PostgresDatabase.inMemory()
    await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      for index in 0..<2_000 {
        @Shared(.postgres("key-\(index)")) var value = 0
        $value.withLock { $0 = index }
      }
      await database.flushPendingWrites()
    }
    #expect(database.storedKeys.count == 2_000)
    await eventually("every row is let go") { database.rowRecordCount == 0 }
  }
}
