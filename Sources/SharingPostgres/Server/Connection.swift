import CLibPQ
import Foundation

/// One libpq connection to the server, used by one thread at a time.
///
/// Statements take text parameters and return text values; every failure, of the network or
/// of the server, is thrown as a ``PostgresError`` carrying the server's message.
final class Connection: @unchecked Sendable {
  // NB: Unchecked: libpq connections are not thread-safe; a `ConnectionPool` lends each one
  //     to a single borrower at a time, and the listener keeps its own.
  let handle: OpaquePointer

  /// Connects, failing within `connect_timeout` seconds rather than hanging on an unreachable
  /// host; over TCP, a connection whose peer stopped answering fails within about ten seconds
  /// (`tcp_user_timeout` and keepalives) rather than hanging. The connection string's own
  /// settings win.
  init(_ connectionString: String) throws {
    // NB: Later parameters override earlier ones, and the connection string comes last.
    let defaults = [
      ("application_name", "SharingPostgres"), ("connect_timeout", "10"),
      ("tcp_user_timeout", "10000"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
      ("keepalives_count", "3"),
    ]
    let keywords = defaults.map(\.0) + ["dbname"]
    let values = defaults.map(\.1) + [connectionString]
    let handle = keywords.withCStrings { keywords in
      values.withCStrings { values in PQconnectdbParams(keywords, values, 1) }
    }
    guard let handle else { throw PostgresError("Out of memory while connecting.") }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(handle))
      PQfinish(handle)
      throw PostgresError(message)
    }
    self.handle = handle
    // NB: Notices (e.g. "relation already exists, skipping") would go to standard error.
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
  }

  deinit {
    PQfinish(handle)
  }

  /// Whether the connection was lost.
  var isBroken: Bool {
    PQstatus(handle) != CONNECTION_OK
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

  /// Runs one statement with text parameters (`$1`, `$2`, …).
  ///
  /// - Returns: The rows it returned, each value as text or `nil` for SQL `NULL`.
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
    let result = parameters.withOptionalCStrings { parameters in
      PQexecParams(handle, sql, Int32(parameters.count), nil, parameters, nil, nil, 0)
    }
    defer { PQclear(result) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
      return []
    case PGRES_TUPLES_OK:
      return (0..<PQntuples(result)).map { row in
        (0..<PQnfields(result)).map { column in
          PQgetisnull(result, row, column) == 1
            ? nil : String(cString: PQgetvalue(result, row, column))
        }
      }
    default:
      throw PostgresError(result: result, connection: handle)
    }
  }

  // MARK: Notifications

  /// The socket to wait on for notifications.
  var socket: Int32 {
    PQsocket(handle)
  }

  /// Reads what arrived on the socket and returns the notifications received as
  /// `(channel, payload)` pairs.
  func takeNotifications() throws -> [(channel: String, payload: String)] {
    guard PQconsumeInput(handle) == 1 else {
      throw PostgresError(String(cString: PQerrorMessage(handle)))
    }
    var notifications: [(String, String)] = []
    while let notification = PQnotifies(handle) {
      notifications.append(
        (String(cString: notification.pointee.relname), String(cString: notification.pointee.extra))
      )
      PQfreemem(notification)
    }
    return notifications
  }
}

extension Array where Element == String {
  fileprivate func withCStrings<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    map(Optional.some).withOptionalCStrings { body($0 + [nil]) }
  }
}

extension Array where Element == String? {
  fileprivate func withOptionalCStrings<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
  }
}
