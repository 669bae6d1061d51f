import SharingCore
import SharingDependencies
import SharingPostgres
import Testing

/// Servers that cannot be used: errors, never hangs nor reported issues.
@Suite struct UnreachableServerTests {
  @Test func unreachableServerIsALoadErrorAndASaveErrorNotAHang() async throws {
    let database = PostgresDatabase.server("host=/nonexistent/sharing-postgres port=5432")
    try await withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 1
      await eventually("the load error") { $count.loadError != nil }
      let loadError = try #require($count.loadError as? PostgresError)
      #expect(loadError.message.contains("/nonexistent/sharing-postgres"))
      $count.withLock { $0 = 2 }
      await #expect(throws: PostgresError.self) { try await $count.save() }
      #expect(count == 2)
    }
  }

  @Test func invalidTableNameIsALoadErrorNamingIt() throws {
    let database = PostgresDatabase.server("", table: "flags; DROP TABLE users")
    try withDependencies {
      $0.defaultPostgresDatabase = database
    } operation: {
      @Shared(.postgres("count")) var count = 1
      let error = try #require($count.loadError as? PostgresError)
      #expect(error.message.hasPrefix("'flags; DROP TABLE users' is not a table name"))
    }
  }
}
