import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

@testable import SharingPostgres

/// Integration tests on a real PostgreSQL server: a throwaway cluster the tests start, a table
/// per test, other processes played by `PostgresProbe`.
@Suite(.serialized) struct PostgresServerTests {
  @Test func valueIsWrittenToTheRowAndLoadedByAnotherConnection() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 3 }
      try await $count.save()
    }
    #expect(try table.storedJSON("count") == "3")
    await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      await eventually("the first load") { !$count.isLoading }
      #expect(count == 3)
      #expect($count.loadError == nil)
    }
  }

  /// A long timeout works over TCP (through a relay): a value is written, loaded and played
  /// back. Linux sends at most 127 keepalive probes, and a timeout longer than the system
  /// counts (`poll`, the server's timeouts and `tcp_user_timeout` count milliseconds in 32
  /// bits, about 24.8 days) waits as long as it can.
  @Test(arguments: [Duration.seconds(300), .seconds(365 * 24 * 60 * 60)])
  func longTimeoutWorksOverTCP(timeout: Duration) async throws {
    let table = try await TestTable()
    let relay = try Relay(to: table.cluster)
    defer { relay.stop() }
    let database = table.database(table.cluster.connectionString(through: relay)) {
      $0.timeout = timeout
    }
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      await eventually("the first load", { status($count) }) { !$count.isLoading }
      $count.withLock { $0 = 3 }
      try await $count.save()
      #expect(try table.storedJSON("count") == "3")
      try table.cluster.psql("UPDATE \(table.name) SET value = '5' WHERE key = 'count'")
      await eventually("playback of another's change", { status($count) }) { count == 5 }
      #expect($count.loadError == nil)
    }
  }

  @Test func schemaHasTheDocumentedColumns() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      try await $count.save()
    }
    let columns = try table.cluster.psql(
      """
      SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position)
      FROM information_schema.columns WHERE table_name = '\(table.name)'
      """
    )
    #expect(
      columns == "key text, value jsonb, version bigint, updated_at timestamp with time zone"
    )
  }

  @Test func changeFromAnotherProcessIsPlayedBack() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      let key: PostgresKey<Int> = .postgres("count")
      let run = await Probe.finish(try Probe.start("set", table, ["count", "42"]))
      #expect(run.status == 0, "\(run.errors)")
      let state = {
        "holding \(count), \(status($count)); stored \(table.storedRow("count")); record: "
          + "\(key.row.stateDescription); listener: \(key.database.store.listener.stateDescription)"
      }
      await eventually("the other process's value", state) { count == 42 }
    }
  }

  @Test func pendingChangeIsWrittenWhenTheProcessExits() async throws {
    let table = try await TestTable()
    let run = await Probe.finish(try Probe.start("set-and-exit", table, ["count", "1", "2"]))
    #expect(run.status == 0, "\(run.errors)")
    #expect(try table.storedJSON("count") == "2")
  }

  /// The second write follows the first by a moment: its notification is held back to be
  /// sent with others (see `HintBatch`), and must be sent before the writing process exits.
  @Test func lastWriteOfAProcessThatExitsIsPlayedBack() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @SharedReader(.postgres("first")) var first = 0
      @SharedReader(.postgres("second")) var second = 0
      let firstKey: PostgresKey<Int> = .postgres("first")
      await eventually("the keys loaded") { !$first.isLoading && !$second.isLoading }
      let run = await Probe.finish(try Probe.start("set-two", table, ["first", "second", "7"]))
      #expect(run.status == 0, "\(run.errors)")
      let state = {
        "holding \(first), \(second); stored \(table.storedRow("first")); first's record: "
          + "\(firstKey.row.stateDescription); listener: "
          + firstKey.database.store.listener.stateDescription
      }
      await eventually("the values", state) {
        first == 7 && second == 7
      }
    }
  }

  @Test func changeIsPlayedBackInAnotherProcess() async throws {
    let table = try await TestTable()
    let waiter = try Probe.start("await", table, ["count", "7"])
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      // NB: The other process may subscribe after this write: it then loads the value.
      $count.withLock { $0 = 7 }
      try await $count.save()
    }
    let run = await Probe.finish(waiter)
    #expect(run.status == 0, "\(run.errors)")
  }

  @Test func plainSQLWriteIsPlayedBack() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("greeting")) var greeting = ""
      try await $greeting.save()
      try table.cluster.psql(
        "UPDATE \(table.name) SET value = '\"hello\"' WHERE key = 'greeting'"
      )
      await eventually("the plain SQL write") { greeting == "hello" }
      try table.cluster.psql("DELETE FROM \(table.name) WHERE key = 'greeting'")
      await eventually("the delete") { greeting == "" }
    }
  }

  @Test func coordinatedIncrementsFromFourProcessesOfFourThreadsAreExact() async throws {
    let table = try await TestTable()
    let probes = try (0..<4).map { _ in
      try Probe.start("increment", table, ["count", "4", "25"])
    }
    for probe in probes {
      let run = await Probe.finish(probe)
      #expect(run.status == 0, "\(run.errors)")
    }
    #expect(try table.storedJSON("count") == "400")
    // NB: Each of the 401 writes drew a version of its own from the table's sequence.
    let version = try table.cluster.psql("SELECT version FROM \(table.name) WHERE key = 'count'")
    #expect(Int(version) ?? 0 >= 401)
  }

  @Test func throwingTransactionIsRolledBack() async throws {
    struct Refused: Error {}
    let table = try await TestTable()
    try table.withDatabase {
      let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
      var value = 1
      try key.withTransaction(&value) { $0 = 2 }
      #expect(throws: Refused.self) {
        try key.withTransaction(&value) {
          $0 = 3
          throw Refused()
        }
      }
    }
    #expect(try table.storedJSON("count") == "2")
  }

  @Test func corruptRowIsALoadErrorAndIsKeptBeforeBeingOverwritten() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      try await $count.save()
      try table.cluster.psql(
        "UPDATE \(table.name) SET value = '{\"count\": \"many\"}' WHERE key = 'count'"
      )
      await eventually("the load error") { $count.loadError is PostgresDecodingError }
      #expect(count == 0)
      #expect(try table.storedJSON("count") == #"{"count": "many"}"#)
      $count.withLock { $0 = 1 }
      try await $count.save()
    }
    #expect(try table.storedJSON("count") == "1")
    let kept = try table.cluster.psql(
      "SELECT value::text FROM \(table.name) WHERE key LIKE 'count.corrupt-%'"
    )
    #expect(kept == #"{"count": "many"}"#)
  }

  @Test func serverRestartedMidRunConvergesAndLosesNothingCommitted() async throws {
    let cluster = try await PostgresCluster.start()
    let table = try await TestTable(cluster: cluster)
    try await table.withDatabase {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 1 }
      try await $count.save()

      await cluster.stop()
      await eventually("the lost connection", { "holding \(count), \(status($count))" }) {
        $count.loadError is PostgresError
      }
      $count.withLock { $0 = 2 }
      await #expect(throws: PostgresError.self) { try await $count.save() }
      #expect(count == 2)

      try await cluster.start()
      let state = { "count \(count), loadError \(String(describing: $count.loadError))" }
      await eventually("the failed write, written again", timeout: .seconds(60), state) {
        (try? table.storedJSON("count")) == "2"
      }
      await eventually("the reload", timeout: .seconds(60), state) { $count.loadError == nil }
      #expect($count.saveError == nil)
      try table.cluster.psql("UPDATE \(table.name) SET value = '3' WHERE key = 'count'")
      await eventually("playback after the restart") { count == 3 }
    }
    await cluster.remove()
  }

  /// Connections left idle while the server restarted were closed by it: none is used
  /// again, so the first write after the restart succeeds.
  @Test func firstWriteAfterTheServerRestartedSucceeds() async throws {
    let cluster = try await PostgresCluster.start()
    let table = try await TestTable(cluster: cluster)
    let key: PostgresKey<Int> = table.withDatabase { .postgres("count") }
    try await save(1, with: key)
    await cluster.stop()
    try await cluster.start()
    try await save(2, with: key)
    #expect(try table.storedJSON("count") == "2")
    await cluster.remove()
  }
}

extension PostgresServerTests {
  /// A table named with capital letters is found set up by the processes after the first:
  /// they leave its triggers and functions be, as they would a table named in lower case.
  @Test func tableNamedWithCapitalsIsSetUpOnce() async throws {
    let cluster = try await PostgresCluster.shared()
    let table = "Values_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    let write = { (value: Int) in
      try await withDependencies {
        $0.defaultPostgresDatabase = .server(
          PostgresDatabase.Configuration(
            cluster.connectionString,
            table: table,
            throttle: .zero,
            timeout: TestTable.patientTimeout
          )
        )
      } operation: {
        @Shared(.postgres("count")) var count = 0
        await eventually("the first load", { status($count) }) { !$count.isLoading }
        $count.withLock { $0 = value }
        try await $count.save()
      }
    }
    let trigger = """
      SELECT oid FROM pg_trigger WHERE tgname = 'sharing_stamp' AND tgrelid = '"\(table)"'::regclass
      """
    try await write(1)
    let first = try cluster.psql(trigger)
    try await write(2)
    let second = try cluster.psql(trigger)
    #expect(second == first)
    let stored = try cluster.psql("SELECT value FROM \"\(table)\" WHERE key = 'count'")
    #expect(stored == "2")
  }
}

extension PostgresServerTests {
  /// In a database whose encoding is not UTF-8 (`LATIN1`), text is exchanged as UTF-8, as
  /// this package reads and writes it: `é` is stored as one character, and one written in
  /// plain SQL is played back as itself.
  @Test func textIsExchangedAsUTF8WhateverTheDatabaseEncoding() async throws {
    let table = try await TestTable()
    let database = "latin1_" + table.name
    try table.cluster.psql(
      "CREATE DATABASE \(database) ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' "
        + "TEMPLATE template0"
    )
    let connectionString = table.cluster.connectionString.replacingOccurrences(
      of: "dbname=postgres",
      with: "dbname=\(database)"
    )
    try await withDependencies {
      $0.defaultPostgresDatabase = table.database(connectionString)
    } operation: {
      @Shared(.postgres("name")) var name = ""
      await eventually("the first load", { status($name) }) { !$name.isLoading }
      $name.withLock { $0 = "é" }
      try await $name.save()
      let sql = try Connection(connectionString, timeout: TestTable.patientTimeout)
      let length = "SELECT length(value #>> '{}') FROM \(table.name) WHERE key = 'name'"
      #expect(try sql.execute(length) == [["1"]])
      try sql.execute(
        "UPDATE \(table.name) SET value = to_jsonb(chr(233) || 't') WHERE key = 'name'"
      )
      await eventually("playback of the plain write", { status($name) }) { name == "ét" }
    }
  }
}
