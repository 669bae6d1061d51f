import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPostgres
import Testing

/// Statements through PgBouncer in transaction pooling mode, the listening connection direct
/// to the server: connections stay bounded however many processes use the keys.
@Suite(.serialized) struct PgBouncerTests {
  @Test func keysWorkWithStatementsThroughPgBouncerInTransactionMode() async throws {
    let table = try await TestTable()
    let bouncer = try await PgBouncer.start(for: table.cluster, poolSize: 2)
    let database = table.database(bouncer.connectionString) {
      $0.listeningConnectionString = table.cluster.connectionString
    }
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      @Shared(.postgres("total", .coordinated)) var total = 0
      await eventually("the first loads") { !$count.isLoading && !$total.isLoading }
      $count.withLock { $0 = 1 }
      try await $count.save()
      let shared = $total
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask {
            for _ in 0..<10 { shared.withLock { $0 += 1 } }
          }
        }
      }
      #expect($total.saveError == nil)
      try table.cluster.psql("UPDATE \(table.name) SET value = '5' WHERE key = 'count'")
      await eventually("playback of a plain SQL write") { count == 5 }
    }
    #expect(try table.storedJSON("total") == "40")
    await bouncer.stop()
  }

  @Test func fiftyProcessesOfThreeKeysWorkOnAServerOfAHundredConnections() async throws {
    let cluster = try await PostgresCluster.start(maxConnections: 100)
    let bouncer = try await PgBouncer.start(for: cluster, poolSize: 20)
    let table = try await TestTable(cluster: cluster)
    let processes = 50
    let probes = try (0..<processes).map { index in
      try Probe.start(
        "three-keys",
        connectionString: bouncer.connectionString,
        table: table.name,
        ["\(index)", "\(processes)", cluster.connectionString]
      )
    }
    for (index, probe) in probes.enumerated() {
      let run = await Probe.finish(probe)
      #expect(run.status == 0, "process \(index): \(run.errors)")
    }
    #expect(try table.storedJSON("total") == "\(processes)")
    let owned = try cluster.psql(
      "SELECT count(*) FROM \(table.name) WHERE key LIKE 'p-%' AND value = substr(key, 3)::jsonb"
    )
    let others = try cluster.psql(
      "SELECT string_agg(key || ' = ' || value, ', ') FROM \(table.name) WHERE key LIKE 'p-%' AND value <> substr(key, 3)::jsonb"
    )
    #expect(owned == "\(processes)", "rows holding another number: \(others)")
    await bouncer.stop()
    await cluster.remove()
  }
}
