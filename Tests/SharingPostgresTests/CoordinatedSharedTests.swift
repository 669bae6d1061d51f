import Dispatch
import Foundation
import PostgresTestSupport
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

  @Test func saveWritesNothing() async throws {
    @Dependency(\.defaultPostgresDatabase) var database
    @Shared(.postgres("count", .coordinated)) var count = 0
    try await $count.save()
    #expect(database.storedJSON(forKey: "count") == nil)
    #expect($count.saveError == nil)
  }

  @Test func explicitSaveNeverOverwritesAChangeAnotherProcessCommitted() async throws {
    let table = try await TestTable()
    // NB: The other process holds its transaction open while this one saves: a loaded machine
    //     may take longer than the default timeout, past which the server would end it.
    let other: CoordinatedPostgresKey<Int> = withDependencies {
      $0.defaultPostgresDatabase = table.database(table.cluster.connectionString) {
        $0.timeout = .seconds(120)
      }
    } operation: {
      .postgres("count", .coordinated)
    }
    try await table.withDatabase {
      let count = Shared(wrappedValue: 0, .postgres("count", .coordinated))
      count.withLock { $0 = 1 }
      // NB: The other process's change holds the row's lock until it is released: a write of
      //     this process's value made meanwhile waits for the commit, then replaces it.
      let change = HeldTransaction(of: other) { $0 = 5 }
      await eventually("the other process to lock the row") { change.isHoldingTheLock }
      let saved = Locked(false)
      let save = Task {
        defer { saved.withLock { $0 = true } }
        try await count.save()
      }
      try await eventually("the save to end, or to wait for the row") {
        try saved.withLock { $0 } || table.waitsForARowLock()
      }
      change.commit()
      try await save.value
      await eventually("the other process to end its change") { change.result != nil }
      #expect(change.result == .committed)

      #expect(try table.storedJSON("count") == "5")
      await eventually("the other process's change") { count.wrappedValue == 5 }
    }
  }

  @Test func changesFromFourProcessesOfFourThreadsAreExact() async throws {
    let table = try await TestTable()
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

/// A coordinated change made on a thread of its own, as another process would, that holds the
/// row's lock until ``commit()``.
private final class HeldTransaction: Sendable {
  private let stage = Locked(Stage.starting)
  private let release = DispatchSemaphore(value: 0)

  private enum Stage { case starting, holdingTheLock, ended(Result) }

  /// How the change ended.
  enum Result: Equatable { case committed, failed(String) }

  init(of key: CoordinatedPostgresKey<Int>, _ change: @escaping @Sendable (inout Int) -> Void) {
    Thread.detachNewThread { [self] in
      var value = 0
      let result: Result
      do {
        try key.withTransaction(&value) { value in
          change(&value)
          stage.withLock { $0 = .holdingTheLock }
          release.wait()
        }
        result = .committed
      } catch {
        result = .failed("\(error)")
      }
      stage.withLock { $0 = .ended(result) }
    }
  }

  var isHoldingTheLock: Bool {
    stage.withLock { if case .holdingTheLock = $0 { true } else { false } }
  }

  /// How the change ended, once it has.
  var result: Result? {
    stage.withLock { if case .ended(let result) = $0 { result } else { nil } }
  }

  /// Lets the change commit.
  func commit() {
    release.signal()
  }
}

extension TestTable {
  /// Whether a statement on the table waits for a row another transaction locked.
  fileprivate func waitsForARowLock() throws -> Bool {
    let waiting = try cluster.psql(
      """
      SELECT count(*) FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query LIKE '%\(name)%' AND pid <> pg_backend_pid()
      """
    )
    return waiting != "0"
  }
}
