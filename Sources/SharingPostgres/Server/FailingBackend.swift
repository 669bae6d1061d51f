import Foundation

/// The backend of a database that cannot work, such as one given an invalid table name: every
/// call fails with its error.
struct FailingBackend: PostgresBackend {
  let error: PostgresError

  func fetch(_ key: String) throws -> StoredRow? { throw error }

  func write(_ key: String, json: Data, keepsAside: Bool) throws -> Int64 { throw error }

  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data
  ) throws -> Int64 { throw error }

  func listen(
    to buckets: @escaping @Sendable () -> Set<Int>,
    _ onEvent: @escaping @Sendable (ListenEvent) -> Void
  ) -> any ListenSession {
    onEvent(.lost(error))
    return NoSession()
  }

  private struct NoSession: ListenSession {
    func bucketsChanged() {}
    func stop() {}
  }
}
