import CLibPQ

/// An error of the PostgreSQL server or of the connection to it, exposed as
/// ``/SharingCore/Shared/loadError`` or ``/SharingCore/Shared/saveError``.
///
/// Its ``message`` is the server's or libpq's own, e.g. `connection to server on socket
/// "/run/postgresql/.s.PGSQL.5432" failed: No such file or directory`.
public struct PostgresError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What went wrong, as the server or libpq said it.
  public let message: String
  /// The server's SQLSTATE code, such as `22P02` for invalid JSON, when the server answered.
  public let sqlState: String?

  init(_ message: String, sqlState: String? = nil) {
    // libpq's messages end with a line break.
    self.message = String(message.reversed().drop(while: \.isNewline).reversed())
    self.sqlState = sqlState
  }

  init(result: OpaquePointer?, connection: OpaquePointer) {
    let message =
      result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
    let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }
    self.init(
      message.isEmpty ? String(cString: PQerrorMessage(connection)) : message,
      sqlState: state.map { String(cString: $0) }
    )
  }

  /// The error message.
  public var description: String { message }

  /// The server did not answer within the database's timeout.
  static func timedOut(after timeout: Duration, _ doing: String) -> Self {
    PostgresError(
      "The server did not answer within \(timeout.formatted) (\(doing)): it may be down or "
        + "unreachable, or the timeout of the database's configuration too short."
    )
  }

  /// The answer to the commit of a change of `key` was lost (`cause`): it may have been made.
  static func commitUnanswered(_ key: String, _ cause: PostgresError) -> Self {
    PostgresError(
      "The change of '\(key)' may have been committed: the server's answer to its COMMIT was "
        + "lost (\(cause.message)). It is not made again; the value is read from the row once "
        + "the server answers."
    )
  }

  /// Whether the server has no prepared statement of the name used (`26000`), or has one
  /// already (`42P05`).
  var isAboutPreparedStatements: Bool {
    sqlState == "26000" || sqlState == "42P05"
  }
}

extension Duration {
  /// `2 s`, `500 ms`.
  var formatted: String {
    let milliseconds = Int(self / .milliseconds(1))
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }
}
