import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPostgres
import Testing

/// Keys that PostgreSQL's `text` cannot hold are refused, never written to another key's row.
@Suite struct KeyCheckTests {
  @Test func keyWithANulCharacterIsRefusedAndWritesNoOtherRow() async throws {
    let table = try await TestTable()
    try await table.withDatabase {
      @Shared(.postgres("a")) var a = 0
      @Shared(.postgres("a\u{0}b")) var ab = 0
      $ab.withLock { $0 = 1 }
      await #expect(throws: PostgresError.self) { try await $ab.save() }
      let error = try #require($ab.saveError as? PostgresError)
      #expect(error.message.contains("NUL character"))
      try await $a.save()
    }
    #expect(try table.storedJSON("a") == "0")
  }

  @Test func keyWithANulCharacterIsRefusedByTheInMemoryStandIn() async throws {
    let database = PostgresDatabase.inMemory(throttle: .zero)
    await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("a\u{0}b")) var ab = 0
      $ab.withLock { $0 = 1 }
      await #expect(throws: PostgresError.self) { try await $ab.save() }
      #expect(database.storedKeys.isEmpty)
    }
  }
}
