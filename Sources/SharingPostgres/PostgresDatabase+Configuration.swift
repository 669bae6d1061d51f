extension PostgresDatabase {
  /// Everything a ``PostgresDatabase/server(_:)`` needs to know: where the server is, the
  /// table, how often keys write, how many connections a process opens, and how long it waits
  /// for the network.
  ///
  /// ```swift
  /// prepareDependencies {
  ///   $0.defaultPostgresDatabase = .server(
  ///     PostgresDatabase.Configuration(
  ///       "host=pgbouncer.internal port=6432 dbname=app user=app",
  ///       listeningConnectionString: "host=db.internal dbname=app user=app",
  ///       timeout: .seconds(2)
  ///     )
  ///   )
  /// }
  /// ```
  ///
  /// Each process opens, per database, at most ``maximumConnections`` connections for
  /// statements, and one more, direct to the server, that listens for changes: see
  /// <doc:RunningOnManyMachines>.
  public struct Configuration: Sendable, Equatable {
    /// The libpq connection string (`host=/run/postgresql dbname=app`) or URI
    /// (`postgresql://app@db.internal/app`) of statement connections; empty to use only libpq's
    /// environment variables. It may name a pooler such as PgBouncer in transaction mode.
    public var connectionString: String

    /// The connection string of the listening connection, which must reach the server
    /// itself, not a pooler in transaction mode (`LISTEN` lives as long as a session); `nil`
    /// to use ``connectionString``.
    public var listeningConnectionString: String?

    /// The table holding the values, `name` or `schema.name`; created, with its trigger, when
    /// missing.
    public var table: String

    /// The least time between two writes of one key after changes.
    public var throttle: Duration

    /// The longest wait for the network, 2 seconds by default: for connecting, for each
    /// answer of the server to a statement, and for the answer to the listening connection's
    /// liveness check, sent once nothing was heard for a quarter of it. The server holds a
    /// statement, and a transaction left idle, for as long at most (`statement_timeout`,
    /// `idle_in_transaction_session_timeout`); TCP gives up on unacknowledged data after it
    /// too (`tcp_user_timeout`). A server that cannot be reached is thus reported within it,
    /// and a partition noticed within it; a statement waiting for a row lock longer than it
    /// fails. A timeout longer than these count (about 24.8 days) waits that long.
    public var timeout: Duration

    /// The most connections for statements open at once in a process, 4 by default.
    ///
    /// Statements beyond it wait for a connection, within ``timeout``.
    public var maximumConnections: Int

    /// A configuration.
    ///
    /// - Parameters:
    ///   - connectionString: The connection string of statement connections; see
    ///     ``connectionString``.
    ///   - listeningConnectionString: The connection string of the listening connection, when
    ///     it differs.
    ///   - table: The table holding the values.
    ///   - throttle: The least time between two writes of one key after changes.
    ///   - timeout: The longest wait for the network; see ``timeout``.
    ///   - maximumConnections: The most connections for statements open at once.
    public init(
      _ connectionString: String = "",
      listeningConnectionString: String? = nil,
      table: String = "sharing_values",
      throttle: Duration = .seconds(1),
      timeout: Duration = .seconds(2),
      maximumConnections: Int = 4
    ) {
      self.connectionString = connectionString
      self.listeningConnectionString = listeningConnectionString
      self.table = table
      self.throttle = throttle
      self.timeout = timeout
      self.maximumConnections = maximumConnections
    }
  }
}

extension PostgresDatabase.Configuration: CustomStringConvertible {
  /// The configuration as written, with any password replaced by `***`.
  public var description: String {
    let redacted = { String(reflecting: ConnectionString.redacting($0)) }
    var parts = [redacted(connectionString)]
    if let listeningConnectionString {
      parts.append("listeningConnectionString: \(redacted(listeningConnectionString))")
    }
    parts.append("table: \(String(reflecting: table))")
    if throttle != .seconds(1) { parts.append("throttle: \(throttle)") }
    if timeout != .seconds(2) { parts.append("timeout: \(timeout)") }
    if maximumConnections != 4 { parts.append("maximumConnections: \(maximumConnections)") }
    return parts.joined(separator: ", ")
  }
}
