import Dispatch
import SharingCore
import SharingDependencies
import SharingPersistence
import SharingPostgres
import Testing

/// `Shared.withLock` on a coordinated key, which runs each change as a transaction of the
/// server through ``CoordinatedSharedKey/withTransaction(_:_:)``.
@Suite struct CoordinatedSharedTests {
  @Test func eachChangeIsCommittedBeforeWithLockReturns() {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count", .coordinated)) var count = 0
      $count.withLock { $0 += 1 }
      #expect(database.storedJSON(forKey: "count") == "1")
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test func changeStartsFromTheStoredValue() throws {
    @Dependency(\.defaultPostgresDatabase) var database
    @Shared(.postgres("count", .coordinated)) var count = 0
    try database.simulateExternalWrite(10, forKey: "count")
    $count.withLock { $0 += 1 }
    #expect(count == 11)
    #expect(database.storedJSON(forKey: "count") == "11")
  }

  @Test func changesFromManyThreadsLoseNothing() {
    @Dependency(\.defaultPostgresDatabase) var database
    let count = Shared(wrappedValue: 0, .postgres("count", .coordinated))
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<50 { count.withLock { $0 += 1 } }
    }
    #expect(count.wrappedValue == 400)
    #expect(database.storedJSON(forKey: "count") == "400")
  }

  @Test func changesFromFourProcessesOfFourThreadsAreExact() async throws {
    let table = try TestTable()
    let probes = try (0..<4).map { _ in
      try Probe.start("shared-increment", table, ["count", "4", "25"])
    }
    for probe in probes {
      let run = await Probe.finish(probe)
      #expect(run.status == 0, "\(run.errors)")
    }
    #expect(try table.storedJSON("count") == "400")
  }
}
