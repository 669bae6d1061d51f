import Foundation
public import SharingPersistence

/// The PostgreSQL database, and the table in it, where ``PostgresKey`` values live.
///
/// A program uses the server that libpq's environment variables name (`PGHOST`, `PGPORT`,
/// `PGDATABASE`, `PGUSER`, `PGPASSWORD`, …), or the one its connection string names:
///
/// ```swift
/// prepareDependencies {
///   $0.defaultPostgresDatabase = .server("postgresql://app@db.internal/app")
/// }
/// @Shared(.postgres("feature-flags")) var flags = FeatureFlags()
/// ```
///
/// Tests use a fresh ``inMemory(throttle:scheduler:)`` stand-in by default, which behaves like
/// the server, and can play "another machine" with ``simulateExternalWrite(json:forKey:)``.
///
/// Create a database once and keep it: each one has its own connections, and the shared
/// values of two databases are distinct even when they name the same server.
public struct PostgresDatabase: Sendable {
  let store: PostgresStore
  let label: String

  /// Whether the database is reached over the network: its keys then load off the caller's
  /// thread, so that creating one never waits on the network.
  var isRemote: Bool { store.backend is ServerBackend }

  /// The number of rows this process keeps a record of: those a key holds, or with a write
  /// to make.
  package var rowRecordCount: Int { store.rows.count }

  /// A PostgreSQL server.
  ///
  /// - Parameters:
  ///   - connectionString: A libpq connection string (`host=/run/postgresql dbname=app`) or
  ///     URI (`postgresql://app@db.internal/app`); empty to use only libpq's environment
  ///     variables.
  ///   - table: The table holding the values, `name` or `schema.name`; created, with its
  ///     trigger, when missing.
  ///   - throttle: The least time between two writes of one key after changes.
  /// - Returns: A database, with the other settings of ``Configuration`` as by default. An
  ///   invalid table name is reported as ``/SharingCore/Shared/loadError`` and
  ///   ``/SharingCore/Shared/saveError``.
  public static func server(
    _ connectionString: String = "",
    table: String = "sharing_values",
    throttle: Duration = .seconds(1)
  ) -> Self {
    server(Configuration(connectionString, table: table, throttle: throttle))
  }

  /// A PostgreSQL server, as configured: its connections, table, throttle and timeout.
  ///
  /// ```swift
  /// prepareDependencies {
  ///   $0.defaultPostgresDatabase = .server(
  ///     PostgresDatabase.Configuration("postgresql://app@db.internal/app", timeout: .seconds(1))
  ///   )
  /// }
  /// ```
  ///
  /// - Parameter configuration: Where the server is, and how to use it.
  /// - Returns: A database. An invalid table name is reported as
  ///   ``/SharingCore/Shared/loadError`` and ``/SharingCore/Shared/saveError``.
  public static func server(_ configuration: Configuration) -> Self {
    let backend: any PostgresBackend
    do {
      backend = ServerBackend(
        configuration: configuration,
        sql: try TableSQL(table: configuration.table)
      )
    } catch {
      backend = FailingBackend(error: error as? PostgresError ?? PostgresError("\(error)"))
    }
    return PostgresDatabase(
      store: PostgresStore(
        backend: backend,
        scheduler: DispatchWriteScheduler.shared,
        throttle: configuration.throttle,
        pendingWrites: .shared
      ),
      label: ".server(\(configuration))"
    )
  }

  /// The server libpq's environment variables name, with the default table: the database
  /// of a program that sets none.
  public static let environment = server()

  /// A stand-in for a server, in memory, that tests use.
  ///
  /// It keeps rows with versions, checks that values are JSON, locks rows in transactions,
  /// and plays back changes made with ``simulateExternalWrite(json:forKey:)`` as a server
  /// plays back another machine's.
  ///
  /// - Parameters:
  ///   - throttle: The least time between two writes of one key after changes.
  ///   - scheduler: When throttled writes happen: by default on a private queue after real
  ///     time; a ``/SharingPersistence/ManualWriteScheduler`` decides it in a test.
  /// - Returns: An empty database of its own.
  public static func inMemory(
    throttle: Duration = .seconds(1),
    scheduler: (any WriteScheduler)? = nil
  ) -> Self {
    PostgresDatabase(
      store: PostgresStore(
        backend: InMemoryServer(),
        scheduler: scheduler ?? DispatchWriteScheduler.shared,
        throttle: throttle,
        pendingWrites: PendingWrites()
      ),
      label: ".inMemory"
    )
  }

  /// Writes every pending change of this database's keys, and returns once it is stored or
  /// failed, and other processes are told of it.
  ///
  /// ```swift
  /// $flags.withLock { $0.darkMode = true }
  /// await PostgresDatabase.environment.flushPendingWrites()
  /// ```
  ///
  /// Pending changes of a server's keys are also written when the program exits normally.
  public func flushPendingWrites() async {
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async { [store] in
        store.pendingWrites.flushAndWait()
        store.backend.sendHeldNotifications()
        finished.resume()
      }
    }
  }
}

extension PostgresDatabase: CustomStringConvertible {
  /// The database as created, e.g. `.server("", table: "sharing_values")`, with any
  /// password replaced by `***`.
  public var description: String { label }
}
