import Dispatch
import Foundation
import SharingDependencies

/// A PostgreSQL server reached through libpq: a bounded pool of connections for statements,
/// and one more, owned by a ``Listener``, for notifications.
///
/// Every call is at most two round trips, each one libpq pipeline: a write is the upsert
/// and its commit, then the notification in a transaction of its own; a transaction locks
/// the row in one, and writes and commits in the other.
final class ServerBackend: PostgresBackend {
  let configuration: PostgresDatabase.Configuration
  let sql: TableSQL
  private let pool: ConnectionPool
  private let isSetUp = Locked(false)
  private let hints = Locked(HintBatch())

  init(configuration: PostgresDatabase.Configuration, sql: TableSQL) {
    self.configuration = configuration
    self.sql = sql
    self.pool = ConnectionPool(
      connectionString: configuration.connectionString,
      limit: configuration.maximumConnections,
      timeout: configuration.timeout
    )
  }

  func fetch(_ key: String) throws -> StoredRow? {
    try StoredRow.check(key: key)
    return try withConnection { connection in
      try connection.execute(sql.select, [key]).first.map(Self.row)
    }
  }

  func write(_ key: String, json: Data, keepsAside: Bool) throws -> Int64 {
    try StoredRow.check(key: key, json: json)
    let notifiesAtOnce = hints.withLock { $0.claimAtOnce(now: .now) }
    let version = try withConnection { connection in
      let results = try connection.runRollingBack(
        [
          Statement("BEGIN"), sql.writer(timeout: configuration.timeout),
          Statement(
            keepsAside ? sql.upsertKeepingAside : sql.upsert,
            [key, String(decoding: json, as: UTF8.self)]
          ),
          Statement("COMMIT"),
        ] + (notifiesAtOnce ? sql.notify(key) : [])
      )
      return try Self.version(results[2].first?.first)
    }
    if !notifiesAtOnce { notifyLater(key, version: version) }
    return version
  }

  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data,
    willCommit: (Int64) -> Void
  ) throws -> Int64 {
    try StoredRow.check(key: key, json: missing)
    let notifiesAtOnce = hints.withLock { $0.claimAtOnce(now: .now) }
    let version = try withConnection { connection in
      do {
        let locked = try connection.run([
          Statement("BEGIN"), sql.writer(timeout: configuration.timeout),
          Statement(sql.insertIfMissing, [key, String(decoding: missing, as: UTF8.self)]),
          Statement(sql.selectForUpdate, [key]), Statement(sql.drawVersion),
        ])
        guard let row = locked[3].first else {
          throw PostgresError("The row of '\(key)' was deleted while it was being locked.")
        }
        let version = try Self.version(locked[4].first?.first)
        let json = try body(Self.row(row), !locked[2].isEmpty)
        try StoredRow.check(key: key, json: json)
        willCommit(version)
        try connection.run(
          [
            Statement(sql.update, [key, String(decoding: json, as: UTF8.self)]),
            Statement("COMMIT"),
          ] + (notifiesAtOnce ? sql.notify(key) : [])
        )
        return version
      } catch {
        if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
    if !notifiesAtOnce { notifyLater(key, version: version) }
    return version
  }

  /// Notifies the channel of a committed write with the others of the interval; see
  /// ``HintBatch``.
  private func notifyLater(_ key: String, version: Int64) {
    guard let delay = hints.withLock({ $0.add(key, version: version, now: .now) }) else { return }
    let nanoseconds = Int(delay / .nanoseconds(1))
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
      let versions = hints.withLock { $0.take(now: .now) }
      guard !versions.isEmpty else { return }
      // NB: If the server cannot be reached, the listening connections are lost too, and
      //     reload every key once back: the notifications are not needed then.
      _ = try? withConnection { try $0.runRollingBack(sql.notify(versions)) }
    }
  }

  func listen(_ onEvent: @escaping @Sendable (ListenEvent) -> Void) -> @Sendable () -> Void {
    let listener = Listener(
      connectionString: configuration.listeningConnectionString
        ?? configuration.connectionString,
      timeout: configuration.timeout,
      listen: sql.listen,
      prepare: { [self] connection in
        pool.serverAnswered()
        try setUpIfNeeded(connection)
      }
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
    let isReady = try connection.run([sql.isSetUp])[0].first?.first == "t"
    if !isReady { try connection.runRollingBack(sql.setUp) }
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

extension Connection {
  /// Runs statements that open transactions, rolling back the one left open if a statement
  /// fails.
  @discardableResult
  fileprivate func runRollingBack(_ statements: [Statement]) throws -> [[[String?]]] {
    do {
      return try run(statements)
    } catch {
      if !isBroken { _ = try? execute("ROLLBACK") }
      throw error
    }
  }
}
