import Foundation
import SharingDependencies

/// A PostgreSQL server reached through libpq: a pool of connections for statements, and one
/// more, owned by a ``Listener``, for notifications.
final class ServerBackend: PostgresBackend {
  let connectionString: String
  let sql: TableSQL
  private let pool: ConnectionPool
  private let isSetUp = Locked(false)

  init(connectionString: String, sql: TableSQL) {
    self.connectionString = connectionString
    self.sql = sql
    self.pool = ConnectionPool(connectionString: connectionString)
  }

  func fetch(_ key: String) throws -> StoredRow? {
    try withConnection { connection in
      try connection.execute(sql.select, [key]).first.map(Self.row)
    }
  }

  func write(_ key: String, json: Data, keepsAside: Bool) throws -> Int64 {
    try withConnection { connection in
      let rows = try connection.execute(
        keepsAside ? sql.upsertKeepingAside : sql.upsert,
        [key, String(decoding: json, as: UTF8.self)]
      )
      return try Self.version(rows.first?.first)
    }
  }

  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data,
    willCommit: (Int64) -> Void
  ) throws -> Int64 {
    try withConnection { connection in
      try connection.execute("BEGIN")
      do {
        let inserted = try connection.execute(
          sql.insertIfMissing,
          [key, String(decoding: missing, as: UTF8.self)]
        )
        guard let locked = try connection.execute(sql.selectForUpdate, [key]).first else {
          throw PostgresError("The row of '\(key)' was deleted while it was being locked.")
        }
        let json = try body(Self.row(locked), !inserted.isEmpty)
        let version = try Self.version(
          connection.execute(sql.update, [key, String(decoding: json, as: UTF8.self)]).first?
            .first
        )
        willCommit(version)
        try connection.execute("COMMIT")
        return version
      } catch {
        if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
  }

  func listen(_ onEvent: @escaping @Sendable (ListenEvent) -> Void) -> @Sendable () -> Void {
    let listener = Listener(
      connectionString: connectionString,
      listen: sql.listen,
      prepare: { [self] in try setUpIfNeeded($0) }
    ) { notification in
      onEvent(Self.event(notification))
    }
    return { listener.stop() }
  }

  /// Runs `body` on a pooled connection, creating the table first if this process has not.
  private func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
    try pool.withConnection { connection in
      try setUpIfNeeded(connection)
      return try body(connection)
    }
  }

  private func setUpIfNeeded(_ connection: Connection) throws {
    guard !isSetUp.withLock({ $0 }) else { return }
    let triggers = try connection.execute(sql.countTriggers, [sql.table]).first?.first
    if triggers != "2" {
      try connection.execute("BEGIN")
      do {
        for statement in sql.setUp {
          try connection.execute(statement, statement.contains("$1") ? [sql.table] : [])
        }
        try connection.execute("COMMIT")
      } catch {
        if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
    isSetUp.withLock { $0 = true }
  }

  private static func row(_ columns: [String?]) throws -> StoredRow {
    let json = (columns.first ?? nil) ?? "null"
    return StoredRow(json: Data(json.utf8), version: try version(columns.last))
  }

  private static func version(_ text: String??) throws -> Int64 {
    guard let text = text ?? nil, let version = Int64(text) else {
      throw PostgresError("The server returned no version.")
    }
    return version
  }

  /// Reads a notification's payload, `<version> <key>`.
  private static func event(_ listened: Listener.Event) -> ListenEvent {
    switch listened {
    case .notification(let payload):
      let parts = payload.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
      let version = Int64(parts[0]) ?? 0
      return .changed(
        key: parts.count > 1 ? String(parts[1]) : "",
        version: version == 0 ? nil : version
      )
    case .listening(let afterLoss):
      return .listening(afterLoss: afterLoss)
    case .lost(let error):
      return .lost(error)
    }
  }
}
