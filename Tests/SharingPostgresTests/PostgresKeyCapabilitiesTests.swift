import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import SharingPostgres
import Testing

/// A PostgreSQL key paired with a default (`.Default`) does everything the key does.
@Suite struct PostgresKeyCapabilitiesTests {
  @Dependency(\.defaultPostgresDatabase) var database

  @Test func aCoordinatedKeyWithADefaultCommitsEveryChange() throws {
    let key = CoordinatedPostgresKey<Int>.Default[.postgres("count", .coordinated), default: 0]
    @Shared(key) var count
    $count.withLock { $0 += 1 }
    #expect(database.storedJSON(forKey: "count") == "1")
    try database.simulateExternalWrite(10, forKey: "count")
    $count.withLock { $0 += 1 }
    #expect(count == 11)
    #expect(database.storedJSON(forKey: "count") == "11")
  }

  @Test func everyKeyKeepsItsIdentityAndTransactionsWithADefault() {
    let plain: PostgresKey<Int> = .postgres("plain")
    let coordinated: CoordinatedPostgresKey<Int> = .postgres("coordinated", .coordinated)
    #expect(PostgresKey<Int>.Default[plain, default: 0].id == plain.id)
    #expect(PostgresKey<Int>.Default[plain, default: 0]._coordinatedKey == nil)
    #expect(CoordinatedPostgresKey<Int>.Default[coordinated, default: 0].id == coordinated.id)
    #expect(CoordinatedPostgresKey<Int>.Default[coordinated, default: 0]._coordinatedKey != nil)
  }

  @Test func aThrottledChangeKeepsNoCopyOfTheValue() throws {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    try withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("numbers")) var numbers = Array(0..<1_000)
      $numbers.withLock { $0.reserveCapacity(2_000) }
      scheduler.advance()
      $numbers.withLock { $0.append(1_000) }
      let before = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      $numbers.withLock { $0.append(1_001) }
      let after = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      #expect(before == after, "a write waiting for the throttle kept a copy of the value")
      scheduler.advance(by: .seconds(1))
      let stored = try #require(database.storedJSON(forKey: "numbers"))
      #expect(try JSONDecoder().decode([Int].self, from: Data(stored.utf8)) == Array(0..<1_002))
    }
  }
}
