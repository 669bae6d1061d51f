import Foundation
import TestSupport

/// A throwaway PgBouncer in transaction pooling mode in front of a cluster, for tests:
/// started as a daemon listening on 127.0.0.1, stopped by ``stop()``, or when the test
/// process exits (a watcher process stops it if the test process is killed).
///
/// ```swift
/// let bouncer = try await PgBouncer.start(for: cluster, poolSize: 20)
/// let database = PostgresDatabase.server(
///   PostgresDatabase.Configuration(
///     bouncer.connectionString,
///     listeningConnectionString: cluster.connectionString
///   )
/// )
/// ```
public final class PgBouncer: Sendable {
  /// The port clients connect to, on 127.0.0.1.
  public let port: Int
  private let directory: URL

  /// Starts PgBouncer for the cluster's `postgres` database, and waits until it accepts
  /// connections.
  ///
  /// - Parameters:
  ///   - cluster: The cluster it forwards to, through its Unix socket.
  ///   - poolSize: The most server connections it opens.
  public static func start(for cluster: PostgresCluster, poolSize: Int) async throws -> PgBouncer {
    try await onThreadOfItsOwn { try PgBouncer(cluster: cluster, poolSize: poolSize) }
  }

  private init(cluster: PostgresCluster, poolSize: Int) throws {
    port = try PostgresCluster.freeLoopbackPort()
    directory = cluster.directory.appendingPathComponent("pgbouncer-\(port)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let users = directory.appendingPathComponent("users.txt")
    try Data(#""sharing" """#.utf8).write(to: users)
    let socketDirectory = URL(fileURLWithPath: cluster.socketPath).deletingLastPathComponent()
    let socketPort = cluster.socketPath.split(separator: ".").last ?? "5432"
    let configuration = """
      [databases]
      postgres = host=\(socketDirectory.path) port=\(socketPort) dbname=postgres user=sharing

      [pgbouncer]
      listen_addr = 127.0.0.1
      listen_port = \(port)
      unix_socket_dir =
      auth_type = trust
      auth_file = \(users.path)
      pool_mode = transaction
      default_pool_size = \(poolSize)
      max_db_connections = \(poolSize)
      max_client_conn = 500
      server_reset_query =
      ignore_startup_parameters = extra_float_digits
      logfile = \(directory.appendingPathComponent("log").path)
      pidfile = \(pidFile)

      """
    let file = directory.appendingPathComponent("pgbouncer.ini")
    try Data(configuration.utf8).write(to: file)
    if getuid() == 0 {
      try PostgresCluster.run("/bin/chown", ["-R", PostgresCluster.runUser, directory.path])
    }
    PostgresCluster.watchForExit(
      stopping: "pid=$(cat '\(pidFile)' 2>/dev/null) && kill -TERM \"$pid\"",
      removing: directory
    )
    let binary = Self.binary
    if getuid() == 0 {
      try PostgresCluster.run(
        "/usr/sbin/runuser",
        ["-u", PostgresCluster.runUser, "--", binary, "-d", file.path]
      )
    } else {
      try PostgresCluster.run(binary, ["-d", file.path])
    }
    try waitUntilListening()
  }

  /// The libpq connection string of the cluster's `postgres` database through PgBouncer.
  public var connectionString: String {
    "host=127.0.0.1 port=\(port) user=sharing dbname=postgres"
  }

  /// Stops PgBouncer at once, closing every connection, and removes its files.
  public func stop() async {
    await onThreadOfItsOwn {
      guard let text = try? String(contentsOfFile: self.pidFile, encoding: .utf8),
        let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
      else { return }
      kill(pid, SIGTERM)
      let deadline = Date.now.addingTimeInterval(30)
      while kill(pid, 0) == 0, Date.now < deadline { usleep(20_000) }
      try? FileManager.default.removeItem(at: self.directory)
    }
  }

  private var pidFile: String { directory.appendingPathComponent("pid").path }

  private static var binary: String {
    FileManager.default.isExecutableFile(atPath: "/usr/sbin/pgbouncer")
      ? "/usr/sbin/pgbouncer" : "pgbouncer"
  }

  private func waitUntilListening() throws {
    let deadline = Date.now.addingTimeInterval(30)
    while Date.now < deadline {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = UInt16(port).bigEndian
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      close(fd)
      if connected { return }
      usleep(20_000)
    }
    let log = try? String(
      contentsOf: directory.appendingPathComponent("log"),
      encoding: .utf8
    )
    throw ClusterError("PgBouncer did not start:\n\(log ?? "no log")")
  }
}
