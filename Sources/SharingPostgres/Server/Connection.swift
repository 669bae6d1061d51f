import CLibPQ
import Foundation

/// One libpq connection to the server, used by one thread at a time.
///
/// Nothing waits on the network for longer than the connection's timeout: it connects
/// asynchronously, within the timeout, and sends and reads without blocking, giving up on a
/// server that sends nothing for as long. Statements take text parameters and return text
/// values; every failure, of the network or of the server, is thrown as a ``PostgresError``
/// carrying the server's message. A connection that timed out or lost the server is broken:
/// it is never used again.
final class Connection: @unchecked Sendable {
  // NB: Unchecked: libpq connections are not thread-safe; a `ConnectionPool` lends each one
  //     to a single borrower at a time, and the listener keeps its own.
  let handle: OpaquePointer
  let timeout: Duration
  /// Set when an exchange with the server was cut short: what it still holds is unknown.
  private var isAbandoned = false
  /// The names of the statements prepared on the connection.
  private var prepared: Set<String> = []
  /// Whether statements with a ``Statement/preparedName`` are prepared: not once the server
  /// answered as a pooler's changing sessions do.
  private(set) var preparesStatements = true

  /// Connects within `timeout`. Over TCP, keepalives and `tcp_user_timeout` also give up on a
  /// peer that stops answering within about as long. The connection string's own settings
  /// win.
  init(_ connectionString: String, timeout: Duration) throws {
    self.timeout = timeout
    let seconds = max(1, Int((timeout / .seconds(1)).rounded(.up)))
    // Keepalive probes, a second apart, give up within the timeout; Linux sends 127 at most,
    // so a longer timeout spaces them further apart.
    let probes = min(127, max(1, seconds - 1))
    let probeInterval = max(1, (seconds - 1 + probes - 1) / probes)
    // NB: Later parameters override earlier ones, and the connection string comes last.
    //     libpq's own `connect_timeout` (whole seconds, at least 2) only backs up ours.
    //     Text is UTF-8 both ways, whatever the database's encoding or `PGCLIENTENCODING`.
    let defaults = [
      ("application_name", "SharingPostgres"), ("client_encoding", "UTF8"),
      ("connect_timeout", "\(max(2, seconds))"),
      ("tcp_user_timeout", "\(Int(timeout / .milliseconds(1)))"), ("keepalives", "1"),
      ("keepalives_idle", "1"), ("keepalives_interval", "\(probeInterval)"),
      ("keepalives_count", "\(probes)"),
    ]
    // Both lists end with `nil`, as libpq expects.
    let keywords: [String?] = defaults.map(\.0) + ["dbname", nil]
    let values: [String?] = defaults.map(\.1) + [connectionString, nil]
    let handle = keywords.withCStrings { keywords in
      values.withCStrings { values in PQconnectStartParams(keywords, values, 1) }
    }
    guard let handle else { throw PostgresError("Out of memory while connecting.") }
    self.handle = handle
    try connect()
    PQsetnonblocking(handle, 1)
    // NB: Notices (e.g. "relation already exists, skipping") would go to standard error.
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
  }

  deinit {
    PQfinish(handle)
  }

  private func connect() throws {
    var polling = PGRES_POLLING_WRITING
    let deadline = ContinuousClock.now + timeout
    while PQstatus(handle) != CONNECTION_BAD,
      [PGRES_POLLING_READING, PGRES_POLLING_WRITING].contains(polling)
    {
      let events = polling == PGRES_POLLING_READING ? POLLIN : POLLOUT
      try wait(for: Int16(events), until: deadline, "connecting")
      polling = PQconnectPoll(handle)
    }
    guard polling == PGRES_POLLING_OK, PQstatus(handle) != CONNECTION_BAD else { throw error() }
  }

  /// Whether the connection was lost, or an exchange on it cut short (it timed out).
  var isBroken: Bool {
    isAbandoned || PQstatus(handle) != CONNECTION_OK
  }

  /// Whether an idle connection can be used again: the server sent nothing on it meanwhile.
  ///
  /// The server speaks unasked on an idle connection to say it is closing it, as when it
  /// shuts down ("terminating connection due to administrator command"), before the end of
  /// the stream: reading those words alone leaves the connection looking fine, and a
  /// statement sent on it fails.
  var isAlive: Bool {
    let socket = PQsocket(handle)
    guard socket >= 0, !isBroken else { return false }
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 0
  }

  // MARK: Statements

  /// Runs one statement with text parameters (`$1`, `$2`, …).
  ///
  /// - Returns: The rows it returned, each value as text or `nil` for SQL `NULL`.
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
    try run([Statement(sql, parameters)])[0]
  }

  /// Runs statements in one round trip (libpq's pipeline mode): sends them all with one
  /// `Sync`, then reads their results. Statements outside `BEGIN`…`COMMIT` form one implicit
  /// transaction. If one fails, those after it up to the `Sync` are skipped, and its error is
  /// thrown once every result is read.
  ///
  /// - Returns: The rows each statement returned.
  @discardableResult
  func run(_ statements: [Statement]) throws -> [[[String?]]] {
    let (rows, failure): ([[[String?]]], Failure?)
    do {
      (rows, failure) = try exchange(statements)
    } catch {
      isAbandoned = true
      throw error
    }
    if let failure, failure.isOfPreparedStatement, failure.error.isAboutPreparedStatements {
      // A pooler in transaction mode gives each transaction a server session of its own,
      // which may lack what this connection prepared, or hold it already: nothing before the
      // prepared statement was committed, so the statements run again, unprepared.
      preparesStatements = false
      if PQtransactionStatus(handle) == PQTRANS_INERROR { try run([Statement("ROLLBACK")]) }
      return try run(statements)
    }
    if let failure { throw failure.error }
    return rows
  }

  /// The first error of an exchange, and whether a prepared statement, or its preparation,
  /// failed with it.
  private typealias Failure = (error: PostgresError, isOfPreparedStatement: Bool)

  /// A result an exchange reads: a statement's, or the preparation's of a statement's name.
  private enum Answer {
    case statement(isPrepared: Bool)
    case preparation(name: String)

    func prepares(_ name: String) -> Bool {
      if case .preparation(name) = self { true } else { false }
    }

    var isOfPreparedStatement: Bool {
      if case .statement(isPrepared: false) = self { false } else { true }
    }
  }

  private func exchange(
    _ statements: [Statement]
  ) throws -> (rows: [[[String?]]], failure: Failure?) {
    assert(
      PQtransactionStatus(handle) == PQTRANS_IDLE
        || statements.allSatisfy { $0.preparedName == nil },
      "Run again unprepared, they would leave the transaction an earlier run opened "
        + "(see Statement.preparedName)."
    )
    guard PQenterPipelineMode(handle) == 1 else { throw error() }
    var answers: [Answer] = []
    for statement in statements {
      let sent = statement.parameters.withCStrings { parameters in
        let count = Int32(parameters.count)
        guard let name = statement.preparedName, preparesStatements else {
          answers.append(.statement(isPrepared: false))
          return PQsendQueryParams(handle, statement.sql, count, nil, parameters, nil, nil, 0)
        }
        if !prepared.contains(name), !answers.contains(where: { $0.prepares(name) }) {
          guard PQsendPrepare(handle, name, statement.sql, count, nil) == 1 else { return 0 }
          answers.append(.preparation(name: name))
        }
        answers.append(.statement(isPrepared: true))
        return PQsendQueryPrepared(handle, name, count, parameters, nil, nil, 0)
      }
      guard sent == 1 else { throw error() }
    }
    guard PQpipelineSync(handle) == 1 else { throw error() }
    try flush()
    var rows: [[[String?]]] = []
    var failure: Failure?
    for answer in answers {
      let result = try nextResult()
      defer { PQclear(result) }
      let status = PQresultStatus(result)
      switch answer {
      case .statement:
        rows.append(status == PGRES_TUPLES_OK ? Self.rows(of: result) : [])
      case .preparation(let name):
        // Kept by the session whatever becomes of the statements after it.
        if status == PGRES_COMMAND_OK { prepared.insert(name) }
      }
      switch status {
      case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_ABORTED:
        break
      default:
        failure =
          failure ?? (
            PostgresError(result: result, connection: handle), answer.isOfPreparedStatement
          )
      }
      // NB: In pipeline mode each statement's results end with a null result.
      if let extra = try nextResult() { PQclear(extra) }
    }
    let sync = try nextResult()
    defer { PQclear(sync) }
    guard PQresultStatus(sync) == PGRES_PIPELINE_SYNC, PQexitPipelineMode(handle) == 1 else {
      throw PostgresError(result: sync, connection: handle)
    }
    return (rows, failure)
  }

  /// Sends what is buffered, reading what the server sends meanwhile so that neither side
  /// blocks the other.
  func flush() throws {
    while true {
      let flushed = PQflush(handle)
      if flushed == 0 { return }
      guard flushed == 1 else { throw error() }
      let events = try wait(for: Int16(POLLIN | POLLOUT), "sending")
      if events & Int16(POLLIN) != 0, PQconsumeInput(handle) != 1 { throw error() }
    }
  }

  /// The next result, waiting for the server as long as it would block.
  private func nextResult() throws -> OpaquePointer? {
    while PQisBusy(handle) == 1 {
      try wait(for: Int16(POLLIN), "waiting for the server's answer")
      guard PQconsumeInput(handle) == 1 else { throw error() }
    }
    return PQgetResult(handle)
  }

  private static func rows(of result: OpaquePointer?) -> [[String?]] {
    (0..<PQntuples(result)).map { row in
      (0..<PQnfields(result)).map { column in
        PQgetisnull(result, row, column) == 1
          ? nil : String(cString: PQgetvalue(result, row, column))
      }
    }
  }

  // MARK: Waiting

  /// Waits until the socket is ready for `events`, at most ``timeout``, or until `deadline`.
  ///
  /// - Returns: The events that happened.
  @discardableResult
  func wait(
    for events: Int16,
    until deadline: ContinuousClock.Instant? = nil,
    _ doing: String
  ) throws -> Int16 {
    let deadline = deadline ?? ContinuousClock.now + timeout
    while true {
      let left = deadline - ContinuousClock.now
      var descriptor = pollfd(fd: PQsocket(handle), events: events, revents: 0)
      let milliseconds = max(0, Int32((left / .milliseconds(1)).rounded(.up)))
      let ready = poll(&descriptor, 1, milliseconds)
      if ready > 0 { return descriptor.revents }
      if ready < 0, errno == EINTR { continue }
      guard ready == 0 else { throw PostgresError(String(cString: strerror(errno))) }
      isAbandoned = true
      throw PostgresError.timedOut(after: timeout, doing)
    }
  }

  /// libpq's last error.
  func error() -> PostgresError {
    PostgresError(String(cString: PQerrorMessage(handle)))
  }
}

/// A statement and its text parameters (`$1`, `$2`, …; `nil` for SQL `NULL`).
struct Statement: Sendable {
  var sql: String
  var parameters: [String?]
  /// The name a connection prepares the statement under, for a statement sent with every
  /// write: the server then parses and plans it once per session, not at each write.
  ///
  /// If a pooler leaves the connection without it, the statements run with it are run again
  /// unprepared, after a rollback. So a prepared statement is run only with statements that
  /// open their own transaction, if any, and never after their `COMMIT`, which may itself
  /// be prepared: if it fails so, nothing was committed.
  var preparedName: String?

  init(_ sql: String, _ parameters: [String?] = []) {
    self.sql = sql
    self.parameters = parameters
  }

  init(_ sql: PreparedSQL, _ parameters: [String?] = []) {
    self.sql = sql.text
    self.parameters = parameters
    self.preparedName = sql.name
  }
}

/// The text of a statement worth preparing, and its name, drawn from the text: a session
/// that holds a statement of that name, whoever prepared it, holds this one.
struct PreparedSQL: Sendable {
  let text: String
  let name: String

  init(_ text: String) {
    self.text = text
    let digest = MD5.digest(text.utf8).prefix(8)
    name = "sharing_" + digest.map { String(Int($0) + 0x100, radix: 16).dropFirst() }.joined()
  }
}

extension Array where Element == String? {
  /// The strings as C strings (`nil` stays `nil`), valid while `body` runs: copied into one
  /// buffer, each ended by a NUL.
  fileprivate func withCStrings<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let size = reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer in
      var end = 0
      let strings = map { string -> UnsafePointer<CChar>? in
        guard let string else { return nil }
        let start = end
        end = buffer[start...].initialize(fromContentsOf: string.utf8)
        buffer.initializeElement(at: end, to: 0)
        end += 1
        return UnsafeRawPointer(buffer.baseAddress! + start).assumingMemoryBound(to: CChar.self)
      }
      return body(strings)
    }
  }
}
