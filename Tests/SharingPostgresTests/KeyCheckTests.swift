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

  /// A string holding the NUL character is encoded as `\u0000`, which `jsonb` refuses: the
  /// save fails saying why, on the server and on its in-memory stand-in alike. An escaped
  /// backslash before `u0000` is text, and is written.
  @Test(arguments: [false, true])
  func valueWithANulCharacterIsRefusedSayingWhy(isInMemory: Bool) async throws {
    let table = try await TestTable()
    let database = isInMemory ? PostgresDatabase.inMemory(throttle: .zero) : table.database()
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("name")) var name = ""
      $name.withLock { $0 = "a\u{0}b" }
      await #expect(throws: PostgresError.self) { try await $name.save() }
      let error = try #require($name.saveError as? PostgresError)
      #expect(error.message.contains("NUL character"))
      $name.withLock { $0 = #"a\u0000b"# }
      try await $name.save()
      #expect($name.saveError == nil)
    }
    if !isInMemory { #expect(try table.storedJSON("name") == #""a\\u0000b""#) }
  }
}
