import Dispatch
import SharingCore
import SharingDependencies
import SharingPersistence
import SharingPostgres
import Testing

/// Coordinated transactions on the in-memory stand-in, called directly.
@Suite struct CoordinatedPostgresKeyTests {
  @Dependency(\.defaultPostgresDatabase) var database

  struct Refused: Error, Equatable {}

  @Test func transactionsFromManyThreadsLoseNothing() throws {
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      var value = 0
      for _ in 0..<100 { try? key.withTransaction(&value) { $0 += 1 } }
    }
    #expect(database.storedJSON(forKey: "count") == "800")
  }

  @Test func usingARowWithAndWithoutCoordinationIsReported() {
    @Shared(.postgres("count", .coordinated)) var coordinated = 0
    withKnownIssue {
      @Shared(.postgres("count")) var plain = 0
      _ = plain
    } matching: { issue in
      issue.description.contains("used both with and without '.coordinated'")
    }
    // Once per row.
    @Shared(.postgres("count")) var again = 0
    _ = (coordinated, again)
  }

  /// A plain change waiting to be written holds its row's key: a coordinated key made
  /// meanwhile is reported, as that write could land over a coordinated change.
  @Test func aCoordinatedKeyMadeWhileAPlainChangeOfTheRowWaitsIsReported() {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      do {
        @Shared(.postgres("count")) var plain = 0
        $plain.withLock { $0 = 1 }
      }
      withKnownIssue {
        @Shared(.postgres("count", .coordinated)) var coordinated = 0
        _ = coordinated
      } matching: { issue in
        issue.description.contains("used both with and without '.coordinated'")
      }
      scheduler.advance()
    }
    #expect(database.storedJSON(forKey: "count") == "1")
  }

  @Test func missingRowIsInsertedThenChanged() throws {
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    var value = 5
    try key.withTransaction(&value) { $0 += 1 }
    #expect(value == 6)
    #expect(database.storedJSON(forKey: "count") == "6")
  }

  @Test func transactionStartsFromAValueTheProgramHasNotSeen() throws {
    try database.simulateExternalWrite(10, forKey: "count")
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    var value = 0
    var seen: Int?
    try key.withTransaction(&value) {
      seen = $0
      $0 += 1
    }
    #expect(seen == 10)
    #expect(value == 11)
    #expect(database.storedJSON(forKey: "count") == "11")
  }

  @Test func throwingBodyStoresNothingAndItsErrorIsRethrown() throws {
    try database.simulateExternalWrite(10, forKey: "count")
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    var value = 10
    #expect(throws: Refused()) {
      try key.withTransaction(&value) {
        $0 = 99
        throw Refused()
      }
    }
    #expect(database.storedJSON(forKey: "count") == "10")
  }

  @Test func undecodableRowFailsBeforeTheBodyAndIsLeftUntouched() throws {
    try database.simulateExternalWrite(json: #""ten""#, forKey: "count")
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    var value = 0
    var calls = 0
    #expect(throws: PostgresDecodingError.self) {
      try key.withTransaction(&value) { _ in calls += 1 }
    }
    #expect(calls == 0)
    #expect(database.storedJSON(forKey: "count") == #""ten""#)
  }

  @Test func serverDownFailsBeforeTheBody() throws {
    database.simulateOutage()
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    var value = 0
    var calls = 0
    #expect(throws: PostgresError.self) {
      try key.withTransaction(&value) { _ in calls += 1 }
    }
    #expect(calls == 0)
  }

  @Test func transactionIsNotPlayedBackToItsOwnProgram() throws {
    @Shared(.postgres("count", .coordinated)) var count = 0
    let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
    var value = count
    try key.withTransaction(&value) { $0 += 1 }
    try database.simulateExternalWrite(json: "5", forKey: "other")
    #expect(count == 0)
  }
}
