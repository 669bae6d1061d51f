import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

@testable import SharingPostgres

/// A write of this package looks, inside its transaction, for the listeners of other
/// processes: one transaction when nobody else listens, and never a change missed by a
/// process that starts listening while the write is in flight.
@Suite(.serialized) struct WriteTransactionTests {
  /// Counted on what the relay carries: the listening connections go around it.
  @Test func writeNoOtherProcessListensToIsOneTransactionInOneRoundTrip() async throws {
    let table = try await TestTable()
    let relay = try Relay(to: table.cluster)
    defer { relay.stop() }
    let database = table.database(table.cluster.connectionString(through: relay)) {
      $0.listeningConnectionString = table.cluster.connectionString
    }
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      // NB: This process listens to the key itself: only other processes are notified.
      let held = SharedReader(wrappedValue: 0, .postgres("count"))
      let key: PostgresKey<Int> = .postgres("count")
      try await save(1, with: key)
      try await eventually("the listener registered") { try table.listenerCount() == 1 }
      // The reader's own reads go through the relay too: its load, the check of its watch,
      // and the read once its bucket is heard. They end before the write is counted.
      let listener = key.database.store.listener
      let bucket = KeyBuckets.bucket(of: "count")
      await eventually("the reader loaded, and its bucket heard") {
        !held.isLoading
          && listener.stateDescription.hasPrefix("listening: true, heard: [\(bucket)]")
      }
      listener.waitForNotifications()
      await eventually("no read of the row under way") {
        key.row.stateDescription.contains("reading: nil, isDelivering: false")
      }
      relay.startRecording()
      let before = relay.roundTrips
      try await save(2, with: key)
      #expect(relay.roundTrips - before == 1)
      let (sent, bytes) = (relay.sent, relay.sentBytes)
      #expect(bytes.binds(of: TableSQL.begin) == 1, "\(sent)")
      #expect(bytes.binds(of: TableSQL.commit) == 1, "\(sent)")
      #expect(bytes.unnamedParses(startingWith: "BEGIN") == 0, "\(sent)")
      #expect(bytes.unnamedParses(startingWith: "COMMIT") == 0, "\(sent)")
      #expect(!sent.contains("_notify\"("), "\(sent)")
      withExtendedLifetime(held) {}
    }
    #expect(try table.storedJSON("count") == "2")
  }

  @Test func writeAnotherProcessListensToNotifiesItAfterItsCommit() async throws {
    let table = try await TestTable()
    let relay = try Relay(to: table.cluster)
    defer { relay.stop() }
    let writer = table.database(table.cluster.connectionString(through: relay))
    let key: PostgresKey<Int> = withDependencies {
      $0.defaultPostgresDatabase = writer
    } operation: {
      .postgres("count")
    }
    try await save(1, with: key)
    try await table.withDatabase {
      @SharedReader(.postgres("count")) var count = 0
      try await eventually("the listener registered") { try table.listenerCount() == 1 }
      await eventually("the first load") { count == 1 }
      relay.startRecording()
      try await save(2, with: key)
      let (sent, bytes) = (relay.sent, relay.sentBytes)
      #expect(bytes.binds(of: TableSQL.commit) == 1, "\(sent)")
      #expect(bytes.unnamedParses(startingWith: "COMMIT") == 0, "\(sent)")
      #expect(sent.contains("_notify\"("), "\(sent)")
      await eventually("the other process's value") { count == 2 }
    }
  }

  /// The write is held at its commit, after it looked for listeners, by a deferred trigger
  /// waiting for a lock that the test holds; another process starts listening meanwhile. Its
  /// registration waits for the write to commit, then it reads the row again: had it
  /// registered at once, it would have read the row before the commit, and the write, having
  /// found no listener, would not have notified it.
  @Test func processListeningWhileAWriteIsInFlightEndsWithTheWrittenValue() async throws {
    let table = try await TestTable()
    let key: PostgresKey<Int> = withDependencies {
      $0.defaultPostgresDatabase = table.database()
    } operation: {
      .postgres("count")
    }
    try await save(1, with: key)
    let gate = "\(table.name)_gate"
    try table.cluster.psql(
      """
      CREATE TABLE \(gate) ();
      CREATE FUNCTION \(gate)() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM FROM \(gate); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER gate AFTER INSERT OR UPDATE ON \(table.name)
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(gate)();
      """
    )
    let holder = try Connection(table.cluster.connectionString, timeout: .seconds(60))
    try holder.execute("BEGIN")
    try holder.execute("LOCK TABLE \(gate) IN ACCESS EXCLUSIVE MODE")
    let write = Task { try await save(2, with: key) }
    try await eventually("the write waiting at its commit") {
      try table.cluster.psql(
        "SELECT count(*) FROM pg_locks WHERE relation = '\(gate)'::regclass AND NOT granted"
      ) == "1"
    }
    try await withDependencies {
      $0.defaultPostgresDatabase = table.database()
    } operation: {
      @SharedReader(.postgres("count")) var count = 0
      try await eventually("the listener registering") {
        try table.listenerCount()
          + table.waiting(on: "Lock", runningLike: "%\(table.name)_listen%") > 0
      }
      await eventually("the first load") { !$count.isLoading }
      #expect(count == 1)
      try holder.execute("ROLLBACK")
      try await write.value
      let reader: PostgresKey<Int> = .postgres("count")
      let state = {
        "holding \(count), load error: \(String(describing: $count.loadError)); stored "
          + "\(table.storedRow("count")); record: \(reader.row.stateDescription); listener: "
          + reader.database.store.listener.stateDescription
      }
      await eventually("the value written", state) { count == 2 }
    }
  }

  /// The privileges the documentation asks of a role that only writes: `SELECT`, `INSERT` and
  /// `UPDATE` on the table and `USAGE` on its sequence. The look for listeners reads the table
  /// of listeners, which the process that set the table up lets every role read.
  @Test func aRoleGrantedOnlyTheTableAndItsSequenceWritesToATableSetUpByAnother() async throws {
    let table = try await TestTable()
    try await table.withDatabase { try await save(1, with: .postgres("count")) }
    let role = "\(table.name)_writer"
    try table.cluster.psql(
      """
      CREATE ROLE \(role) LOGIN;
      GRANT SELECT, INSERT, UPDATE ON \(table.name) TO \(role);
      GRANT USAGE ON SEQUENCE \(table.name)_versions TO \(role);
      """
    )
    defer { _ = try? table.cluster.psql("DROP OWNED BY \(role); DROP ROLE \(role)") }
    let connectionString = table.cluster.connectionString
      .replacingOccurrences(of: "user=sharing", with: "user=\(role)")
    try #require(connectionString.contains("user=\(role)"))
    let writer = table.database(connectionString)
    try await withDependencies {
      $0.defaultPostgresDatabase = writer
    } operation: {
      @Shared(.postgres("count")) var count = 0
      await eventually("the first load") { !$count.isLoading }
      #expect(count == 1)
      $count.withLock { $0 = 2 }
      try await $count.save()
    }
    #expect(try table.storedJSON("count") == "2")
  }

  /// A table set up by a later release, whose schema serves the processes of this one while
  /// a table's processes are upgraded, is not taken back to this release's schema.
  @Test func tableOfALaterSchemaIsLeftAsItIs() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      try await save(3, with: .postgres("count"))
    }
    let later = "SharingPostgres schema \(TableSQL.schema + 1)"
    try table.cluster.psql("COMMENT ON FUNCTION \(table.name)_changed() IS '\(later)'")
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      await eventually("the first load") { !$count.isLoading }
      $count.withLock { $0 = 4 }
      try await $count.save()
    }
    let schema = try table.cluster.psql(
      "SELECT obj_description('\(table.name)_changed'::regproc::oid, 'pg_proc')"
    )
    #expect(schema == later)
    #expect(try table.storedJSON("count") == "4")
  }

  /// A table of schema 3 has no `<table>_heard` function, and its listen function takes no
  /// lock: a process of this version brings it up to date before its first write, and reads
  /// the rows it holds.
  @Test func tableOfThePreviousSchemaIsBroughtUpToDateKeepingItsRows() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      try await save(3, with: .postgres("count"))
    }
    try table.cluster.psql(
      """
      DROP FUNCTION IF EXISTS \(table.name)_heard;
      COMMENT ON FUNCTION \(table.name)_changed() IS 'SharingPostgres schema 3'
      """
    )
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      await eventually("the first load") { !$count.isLoading }
      #expect(count == 3)
      $count.withLock { $0 = 4 }
      try await $count.save()
      #expect($count.saveError == nil)
    }
    #expect(try table.storedJSON("count") == "4")
    let schema = try table.cluster.psql(
      "SELECT obj_description('\(table.name)_changed'::regproc, 'pg_proc')"
    )
    #expect(schema == TableSQL.schemaVersion)
  }
}

extension TestTable {
  /// How many listening connections are registered for the table's keys.
  fileprivate func listenerCount() throws -> Int {
    Int(try cluster.psql("SELECT count(DISTINCT pid) FROM \(name)_listeners")) ?? 0
  }

  /// How many server processes wait on `waitEventType` running a statement like `pattern`.
  fileprivate func waiting(on waitEventType: String, runningLike pattern: String) throws -> Int {
    let count = try cluster.psql(
      """
      SELECT count(*) FROM pg_stat_activity
      WHERE wait_event_type = '\(waitEventType)' AND query LIKE '\(pattern)'
      """
    )
    return Int(count) ?? 0
  }
}

extension [UInt8] {
  /// How many of these messages, sent by a client, bind `statement` by its prepared name: a
  /// Bind is `B`, four bytes of length, the portal's name (none) and the statement's, each
  /// ended by a NUL. For a statement that is not prepared, the binds of unnamed statements.
  fileprivate func binds(of statement: Statement) -> Int {
    messages("B", startingWith: [0] + Array((statement.preparedName ?? "").utf8) + [0])
  }

  /// How many of these messages, sent by a client, parse a statement whose text starts with
  /// `text`, unnamed: a Parse is `P`, four bytes of length, the statement's name (none,
  /// ended by a NUL), then its text.
  fileprivate func unnamedParses(startingWith text: String) -> Int {
    messages("P", startingWith: [0] + Array(text.utf8))
  }

  private func messages(_ type: Character, startingWith fields: [UInt8]) -> Int {
    indices.filter { start in
      self[start] == type.asciiValue && start + 5 + fields.count <= count
        && self[(start + 5)..<(start + 5 + fields.count)].elementsEqual(fields)
    }.count
  }
}
