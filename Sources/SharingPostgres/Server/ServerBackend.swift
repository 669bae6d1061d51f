import Foundation
import SharingDependencies
import SharingPersistence

/// A PostgreSQL server reached through libpq: a bounded pool of connections for statements,
/// and one more, owned by a ``Listener``, for notifications.
///
/// Every call is at most two round trips, each one libpq pipeline. A write is one
/// transaction, which looks for the listening connections of other processes before it
/// commits (see ``TableSQL/heard(_:besides:)``); only if it finds one does a second round trip
/// notify them, in a transaction of its own. A transaction locks the row in one round trip,
/// and writes, commits and notifies in the other, looking for listeners after its commit:
/// holding the lock that registrations wait for across a round trip and the transaction's
/// body would make them, and the writes queued behind them, wait as long. Both orders keep a
/// process that starts listening from missing the change: a registration either is seen by
/// the look for listeners, or reads the row again after the change committed.
final class ServerBackend: PostgresBackend {
  let configuration: PostgresDatabase.Configuration
  let sql: TableSQL
  private let pool: ConnectionPool
  private let isSetUp = Locked(false)
  private let hints = Locked(HintBatch())
  /// Where held notifications are sent, one sending at a time: a flush waits for a sending
  /// under way.
  private let sending = DispatchQueue(label: "SharingPostgres.heldNotifications")
  /// The process ID of the server process of this backend's listening connection: a write
  /// does not notify it, as this process knows what it writes.
  private let listenerID = Locked<Int32?>(nil)
  /// The settings statement of each write's transaction (who writes, its timeouts): see
  /// ``TableSQL/writer(timeout:)``.
  private let writer: Statement

  init(configuration: PostgresDatabase.Configuration, sql: TableSQL) {
    var configuration = configuration
    // `poll`, the server's timeouts and `tcp_user_timeout` count milliseconds in 32 bits.
    configuration.timeout = min(configuration.timeout, .milliseconds(Int32.max))
    self.configuration = configuration
    self.sql = sql
    self.writer = sql.writer(timeout: configuration.timeout)
    self.pool = ConnectionPool(
      connectionString: configuration.connectionString,
      limit: configuration.maximumConnections,
      timeout: configuration.timeout
    )
    // Writes pending at exit are made first, and may hold notifications back.
    ExitFlush.register(.announce) { [weak self] in self?.sendHeldNotifications() }
  }

  func fetch(_ key: String) throws -> StoredRow? {
    try StoredRow.check(key: key)
    return try withConnection { connection in
      try connection.run([Statement(sql.select, [key])])[0].first.map(Self.row)
    }
  }

  func write(_ key: String, json: Data, keepsAside: Bool) throws -> Int64 {
    try StoredRow.check(key: key, json: json)
    let listener = listenerID.withLock { $0 }
    return try notifying(key) { connection, notify, atOnce in
      let upsert = Statement(
        keepsAside ? sql.upsertKeepingAside : sql.upsert,
        [key, String(decoding: json, as: UTF8.self)]
      )
      let results = try connection.runRollingBack(
        [TableSQL.begin, writer, upsert]
          + sql.heard(key, besides: listener) + [TableSQL.commit]
      )
      let version = try Self.version(results[2].first?.first)
      let isHeard = results[4].first?.first == "t"
      guard isHeard, atOnce else { return (version, isHeard) }
      return (version, Self.isHeard(try connection.run([notify()])[0]))
    }
  }

  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data
  ) throws -> Int64 {
    try StoredRow.check(key: key, json: missing)
    return try notifying(key) { connection, notify, _ in
      do {
        let locked = try connection.run([
          Statement("BEGIN"), writer,
          Statement(sql.insertIfMissing, [key, String(decoding: missing, as: UTF8.self)]),
          Statement(sql.selectForUpdate, [key]), Statement(sql.drawVersion),
        ])
        guard let row = locked[3].first else {
          throw PostgresError("The row of '\(key)' was deleted while it was being locked.")
        }
        let version = try Self.version(locked[4].first?.first)
        let json = try body(Self.row(row), !locked[2].isEmpty)
        try StoredRow.check(key: key, json: json)
        do {
          let results = try connection.run([
            Statement(sql.update, [key, String(decoding: json, as: UTF8.self), "\(version)"]),
            Statement("COMMIT"), notify(),
          ])
          return (version, Self.isHeard(results[2]))
        } catch let error as PostgresError where connection.isBroken {
          // The server may have committed before the connection was lost or timed out.
          throw TransactionOutcomeUnknown(PostgresError.commitUnanswered(key, error))
        }
      } catch {
        if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
  }

  /// What a write made: its version, and whether other processes watch its key.
  private typealias Written = (version: Int64, isHeard: Bool)

  /// Runs a write on a pooled connection, handing it what makes the statement that notifies
  /// the other processes watching `key`'s bucket once it committed: at once (`atOnce`), or, if this
  /// process notified less than ``HintBatch/interval`` ago, with the others of the interval
  /// (see ``HintBatch``), the statement then only counting them. The write returns its
  /// version and whether other processes watch the key.
  private func notifying(
    _ key: String,
    _ write: (Connection, _ notify: () -> Statement, _ atOnce: Bool) throws -> Written
  ) throws -> Int64 {
    let atOnce = hints.withLock { $0.claimAtOnce(now: .now) }
    let notify = { [self] in
      sql.notify([key], atOnce: atOnce, listener: listenerID.withLock { $0 })
    }
    let written: Written
    do {
      written = try withConnection { try write($0, notify, atOnce) }
    } catch {
      if atOnce { hints.withLock { $0.claimEnded(notified: false, now: .now) } }
      throw error
    }
    if atOnce {
      hints.withLock { $0.claimEnded(notified: written.isHeard, now: .now) }
    } else if written.isHeard {
      notifyLater(key)
    }
    return written.version
  }

  /// Notifies the other processes watching a key, with the other keys of the interval.
  private func notifyLater(_ key: String) {
    guard let delay = hints.withLock({ $0.add(key, now: .now) }) else { return }
    sending.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
      self?.sendHeld()
    }
  }

  func sendHeldNotifications() {
    sending.sync { sendHeld() }
  }

  private func sendHeld() {
    let keys = hints.withLock { $0.take(now: .now) }
    guard !keys.isEmpty else { return }
    let notify = sql.notify(keys, atOnce: true, listener: listenerID.withLock { $0 })
    // NB: If the server cannot be reached, the listening connections are lost too, and
    //     reload every key once back: the notifications are not needed then.
    _ = try? withConnection { try $0.runRollingBack([notify]) }
  }

  func listen(
    to buckets: @escaping @Sendable () -> Set<Int>,
    _ onEvent: @escaping @Sendable (ListenEvent) -> Void
  ) -> any ListenSession {
    Listener(backend: self, buckets: buckets, onEvent: onEvent)
  }

  /// Readies a new listening connection: the server answered, and the table is set up.
  func prepare(listening connection: Connection) throws {
    pool.serverAnswered()
    try setUpIfNeeded(connection)
  }

  /// Makes the listening connection listen to exactly `buckets`, and notes its process ID.
  func register(_ connection: Connection, listeningTo buckets: Set<Int>) throws {
    let id = try connection.run([sql.listen(to: buckets)])[0].first?.first ?? nil
    listenerID.withLock { $0 = id.flatMap { Int32($0) } }
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

  /// Whether the notifying statement found other processes watching the keys.
  private static func isHeard(_ rows: [[String?]]) -> Bool {
    guard let count = rows.first?.first ?? nil else { return false }
    return count != "0"
  }

  private static func version(_ text: String??) throws -> Int64 {
    guard let text = text ?? nil, let version = Int64(text) else {
      throw PostgresError("The server returned no version.")
    }
    return version
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
