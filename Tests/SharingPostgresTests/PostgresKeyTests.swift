import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import SharingPostgres
import SharingTesting
import Testing

/// The key on the in-memory stand-in, which every test gets by default.
@Suite struct PostgresKeyTests {
  @Dependency(\.defaultPostgresDatabase) var database

  @Test func missingRowGivesTheDefaultAndWritesNothing() {
    @Shared(.postgres("count")) var count = 7
    #expect(count == 7)
    #expect($count.loadError == nil)
    #expect(database.storedKeys == [])
  }

  @Test func storedValueIsLoaded() throws {
    try database.simulateExternalWrite(42, forKey: "count")
    @Shared(.postgres("count")) var count = 0
    #expect(count == 42)
  }

  @Test func firstChangeIsWrittenAtOnceLaterOnesThrottledTheLastAlwaysWritten() {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      #expect(database.storedJSON(forKey: "count") == "1")
      $count.withLock { $0 = 2 }
      $count.withLock { $0 = 3 }
      scheduler.advance(by: .milliseconds(999))
      #expect(database.storedJSON(forKey: "count") == "1")
      scheduler.advance(by: .milliseconds(1))
      #expect(database.storedJSON(forKey: "count") == "3")
    }
  }

  @Test func saveWritesAtOnce() async throws {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 5 }
      try await $count.save()
      #expect(database.storedJSON(forKey: "count") == "5")
    }
  }

  #if os(Linux)
    /// Here the threads of the system's that writes are sent to are the threads tasks run on:
    /// a save awaited off the main thread is written on the thread that asks for it, and
    /// resumes its caller there, without a hand-over to another thread.
    @Test func anAwaitedSaveOffTheMainThreadIsWrittenOnTheThreadThatAsks() async {
      let key: PostgresKey<Int> = withDependencies {
        $0.defaultPostgresDatabase = database
      } operation: {
        .postgres("count")
      }
      let resumedOnTheAskingThread = await withCheckedContinuation { done in
        Thread.detachNewThread {
          let asking = pthread_self()
          let resumedOn = Locked<pthread_t?>(nil)
          key.save(
            5,
            context: .userInitiated,
            continuation: SaveContinuation { _ in resumedOn.withLock { $0 = pthread_self() } }
          )
          done.resume(returning: resumedOn.withLock { $0 } == asking)
        }
      }
      #expect(resumedOnTheAskingThread)
      #expect(database.storedJSON(forKey: "count") == "5")
    }
  #endif

  @Test func flushPendingWritesWritesWhatTheThrottleHolds() async {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      $count.withLock { $0 = 2 }
      await database.flushPendingWrites()
      #expect(database.storedJSON(forKey: "count") == "2")
    }
  }

  @Test func externalWriteIsPlayedBack() throws {
    @Shared(.postgres("count")) var count = 0
    try database.simulateExternalWrite(5, forKey: "count")
    #expect(count == 5)
  }

  @Test func externalDeleteGivesTheDefaultAgain() throws {
    @Shared(.postgres("count")) var count = 0
    try database.simulateExternalWrite(5, forKey: "count")
    database.simulateExternalDelete(forKey: "count")
    #expect(count == 0)
  }

  @Test func pendingChangeGivesWayToANewerExternalOne() throws {
    let scheduler = ManualWriteScheduler()
    let database = PostgresDatabase.inMemory(scheduler: scheduler)
    try withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      $count.withLock { $0 = 2 }
      try database.simulateExternalWrite(9, forKey: "count")
      scheduler.advance(by: .seconds(1))
      #expect(count == 9)
      #expect(database.storedJSON(forKey: "count") == "9")
    }
  }

  @Test func undecodableRowIsALoadErrorAndIsLeftUntouched() throws {
    try database.simulateExternalWrite(json: #"{"not": "a number"}"#, forKey: "count")
    @Shared(.postgres("count")) var count = 3
    #expect(count == 3)
    let error = try #require($count.loadError as? PostgresDecodingError)
    #expect(error.key == "count")
    #expect(database.storedJSON(forKey: "count") == #"{"not": "a number"}"#)
  }

  @Test func undecodableRowIsKeptAsideBeforeAChangeOverwritesIt() async throws {
    try database.simulateExternalWrite(json: #""text""#, forKey: "count")
    @Shared(.postgres("count")) var count = 0
    $count.withLock { $0 = 1 }
    try await $count.save()
    #expect(database.storedJSON(forKey: "count") == "1")
    let kept = try #require(database.storedKeys.first { $0.hasPrefix("count.corrupt-") })
    #expect(database.storedJSON(forKey: kept) == #""text""#)
  }

  @Test func serverDownIsALoadErrorAndASaveErrorAndTheValueStaysInMemory() async throws {
    database.simulateOutage()
    @Shared(.postgres("count")) var count = 0
    #expect($count.loadError is PostgresError)
    $count.withLock { $0 = 4 }
    await #expect(throws: PostgresError.self) { try await $count.save() }
    #expect($count.saveError is PostgresError)
    #expect(count == 4)
  }

  @Test func failedWriteIsWrittenAgainOnceTheServerIsBack() async throws {
    @Shared(.postgres("count")) var count = 0
    database.simulateOutage()
    $count.withLock { $0 = 4 }
    await #expect(throws: PostgresError.self) { try await $count.save() }
    database.simulateOutage(false)
    await eventually("the retried write") { database.storedJSON(forKey: "count") == "4" }
    #expect(count == 4)
  }

  @Test func saveErrorClearsOnceTheFailedWriteIsWrittenAgain() async throws {
    @Shared(.postgres("count")) var count = 0
    database.simulateOutage()
    $count.withLock { $0 = 4 }
    await #expect(throws: PostgresError.self) { try await $count.save() }
    #expect($count.saveError is PostgresError)
    database.simulateOutage(false)
    await eventually("the retried write") { database.storedJSON(forKey: "count") == "4" }
    await eventually("the save error cleared") { $count.saveError == nil }
    #expect(count == 4)
  }

  @Test func reconnectingReloadsHeldKeysAndClearsTheLoadError() throws {
    @Shared(.postgres("count")) var count = 0
    database.simulateOutage()
    #expect($count.loadError is PostgresError)
    database.simulateOutage(false)
    #expect($count.loadError == nil)
  }

  @Test func valueThatIsNotJSONIsASaveErrorFromTheServer() async throws {
    @Shared(
      .postgres(
        "note",
        decode: { @Sendable in String(decoding: $0, as: UTF8.self) },
        encode: { @Sendable in Data($0.utf8) }
      )
    )
    var note = ""
    $note.withLock { $0 = "plain text" }
    let error = await #expect(throws: PostgresError.self) { try await $note.save() }
    #expect(error?.sqlState == "22P02")
    #expect(database.storedKeys == [])
  }

  @Test func keysOfOneNameShareOneValue() {
    @Shared(.postgres("count")) var first = 0
    @Shared(.postgres("count")) var second = 0
    $first.withLock { $0 = 8 }
    #expect(second == 8)
  }
}
