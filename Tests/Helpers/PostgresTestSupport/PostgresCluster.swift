public import Foundation
import SharingDependencies
import TestSupport

/// A throwaway PostgreSQL cluster for tests: `initdb` and `pg_ctl` in a temporary directory,
/// reached only through a Unix socket there, removed when the test process ends — normally,
/// or killed (a watcher process then stops it).
///
/// ```swift
/// let cluster = try await PostgresCluster.shared()
/// let database = PostgresDatabase.server(cluster.connectionString, table: "t_\(id)")
/// ```
///
/// Starting and stopping a server blocks for as long as the server takes, tens of seconds on
/// a loaded machine: tests do it through the asynchronous methods, which block a thread of
/// their own, never one of the task pool that every test of the process shares.
///
/// As root, the server runs as the `postgres` user if there is one, else as `nobody`:
/// PostgreSQL refuses to run as root.
public final class PostgresCluster: Sendable {
  /// The temporary directory, holding the socket, the data and the log.
  public let directory: URL
  /// The TCP port on 127.0.0.1 it listens to, if it does, and of its Unix socket.
  public let port: Int
  private let listensOnLoopback: Bool
  private let fsync: Bool
  private let maxConnections: Int
  private let binaries: URL

  /// The cluster of the test process, started at first use and removed when it exits.
  public static func shared() async throws -> PostgresCluster {
    try await sharedCluster.value
  }

  // NB: Detached: it must not keep the task locals of the test that happens to start it.
  private static let sharedCluster = Task.detached {
    try await onThreadOfItsOwn {
      try PostgresCluster(listensOnLoopback: false, fsync: false, maxConnections: 300)
    }
  }

  /// Starts a cluster of its own, for a test that stops or restarts its server.
  ///
  /// - Parameters:
  ///   - listensOnLoopback: Whether clients connect through TCP on 127.0.0.1, on a free port,
  ///     rather than through the Unix socket.
  ///   - fsync: Whether commits wait for the disk, as by default in PostgreSQL; off, tests run
  ///     faster.
  ///   - maxConnections: The server's `max_connections`; 100 is PostgreSQL's default.
  public static func start(
    listensOnLoopback: Bool = false,
    fsync: Bool = false,
    maxConnections: Int = 300
  ) async throws -> PostgresCluster {
    try await onThreadOfItsOwn {
      try PostgresCluster(
        listensOnLoopback: listensOnLoopback,
        fsync: fsync,
        maxConnections: maxConnections
      )
    }
  }

  private init(listensOnLoopback: Bool, fsync: Bool, maxConnections: Int) throws {
    self.listensOnLoopback = listensOnLoopback
    self.fsync = fsync
    self.maxConnections = maxConnections
    port = listensOnLoopback ? try Self.freeLoopbackPort() : 5432
    binaries = try Self.findBinaries()
    // NB: /tmp rather than $TMPDIR: the server's user must reach the directory, and a Unix
    //     socket's path must stay under about a hundred bytes.
    let template = "/tmp/sharing-pg-XXXXXX"

    var path = Array(template.utf8CString)
    guard mkdtemp(&path) != nil else { throw ClusterError("Cannot create a temporary directory.") }
    let created = path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    directory = URL(fileURLWithPath: String(decoding: created, as: UTF8.self))
    if getuid() == 0 {
      let user = Self.runUser
      try Self.run("/bin/chown", ["-R", user, directory.path])
    }
    try runAsServerUser(
      "initdb",
      [
        "-D", dataPath, "-U", "sharing", "-A", "trust", "--no-sync", "-E", "UTF8",
        "--locale=C",
      ]
    )
    try startServer()
    Self.watchForExit(of: self)
  }

  /// The libpq connection string of the cluster's `postgres` database.
  public var connectionString: String {
    let host = listensOnLoopback ? "127.0.0.1" : directory.path
    return "host=\(host) port=\(port) user=sharing dbname=postgres"
  }

  /// Runs `pgbench` on the cluster's `postgres` database, returning what it prints.
  public func pgbench(_ arguments: [String]) throws -> String {
    let host = listensOnLoopback ? "127.0.0.1" : directory.path
    return try Self.run(
      binaries.appendingPathComponent("pgbench").path,
      arguments + ["-h", host, "-p", "\(port)", "-U", "sharing", "postgres"]
    )
  }

  /// The path of the server's Unix socket.
  public var socketPath: String {
    directory.appendingPathComponent(".s.PGSQL.\(port)").path
  }

  /// The libpq connection string of the cluster's `postgres` database through a relay.
  public func connectionString(through relay: Relay) -> String {
    "host=127.0.0.1 port=\(relay.port) user=sharing dbname=postgres"
  }

  /// Starts the server again, and waits until it accepts connections.
  public func start() async throws {
    try await onThreadOfItsOwn { try self.startServer() }
  }

  /// Stops the server (a fast shutdown: sessions are ended), and waits until it has.
  public func stop() async {
    await onThreadOfItsOwn { self.stopServer() }
  }

  private func startServer() throws {
    try runAsServerUser(
      "pg_ctl",
      [
        "-D", dataPath, "-l", directory.appendingPathComponent("log").path, "-w", "-t", "60",
        "-o",
        "-k \(directory.path) -c listen_addresses='\(listensOnLoopback ? "127.0.0.1" : "")' "
          + "-p \(port) -c fsync=\(fsync ? "on" : "off") -c max_connections=\(maxConnections)",
        "start",
      ]
    )
  }

  private func stopServer() {
    guard let pid = serverPID else { return }
    kill(pid, SIGINT)
    let deadline = Date.now.addingTimeInterval(60)
    while kill(pid, 0) == 0, Date.now < deadline { usleep(20_000) }
  }

  /// Runs SQL with `psql`, returning what it prints (unaligned, tuples only).
  @discardableResult
  public func psql(_ sql: String) throws -> String {
    try Self.run(
      binaries.appendingPathComponent("psql").path,
      [
        "-h", directory.path, "-p", "\(port)", "-U", "sharing", "-d", "postgres", "-X", "-A", "-t",
        "-q",
        "-v", "ON_ERROR_STOP=1", "-c", sql,
      ]
    ).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Stops the server and removes the directory; a cluster a test started and did not
  /// remove, because it failed first, is removed when the test process exits.
  public func remove() async {
    await onThreadOfItsOwn { self.removeNow() }
  }

  private func removeNow() {
    stopServer()
    try? FileManager.default.removeItem(at: directory)
  }

  private var dataPath: String { directory.appendingPathComponent("data").path }

  private var serverPID: pid_t? {
    let file = directory.appendingPathComponent("data/postmaster.pid")
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").first.flatMap { pid_t($0) }
  }

  func runAsServerUser(_ tool: String, _ arguments: [String]) throws {
    let path = binaries.appendingPathComponent(tool).path
    if getuid() == 0 {
      try Self.run("/usr/sbin/runuser", ["-u", Self.runUser, "--", path] + arguments)
    } else {
      try Self.run(path, arguments)
    }
  }

  /// Removes the cluster when the test process exits normally; a watcher process removes it
  /// if the test process is killed.
  private static func watchForExit(of cluster: PostgresCluster) {
    clusters.withLock { $0.append(cluster) }
    let pidFile = "\(cluster.dataPath)/postmaster.pid"
    watchForExit(
      stopping: "pid=$(head -n 1 '\(pidFile)' 2>/dev/null) && kill -QUIT \"$pid\"",
      removing: cluster.directory
    )
  }

  /// Has a watcher process run `stop` and remove `directory` once the test process has
  /// exited, in case it was killed.
  static func watchForExit(stopping stop: String, removing directory: URL) {
    let script = """
      while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
      \(stop)
      sleep 1; rm -rf '\(directory.path)'
      """
    let watcher = Process()
    watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
    watcher.arguments = ["-c", script]
    watcher.standardOutput = FileHandle.nullDevice
    watcher.standardError = FileHandle.nullDevice
    try? watcher.run()
  }

  private static let clusters: Locked<[PostgresCluster]> = {
    atexit { PostgresCluster.clusters.withLock { $0 }.forEach { $0.removeNow() } }
    return Locked([])
  }()

  static let runUser: String = getpwnam("postgres") != nil ? "postgres" : "nobody"

  static func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let found = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard found else { throw ClusterError("Cannot find a free port on 127.0.0.1.") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func findBinaries() throws -> URL {
    let root = URL(fileURLWithPath: "/usr/lib/postgresql")
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    let newest = versions.compactMap(Int.init).max()
    if let newest {
      return root.appendingPathComponent("\(newest)/bin")
    }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    where FileManager.default.isExecutableFile(atPath: "\(directory)/initdb") {
      return URL(fileURLWithPath: String(directory))
    }
    throw ClusterError("PostgreSQL's server is not installed: run scripts/install-postgres.")
  }

  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    // NB: posix_spawn and waitpid, not Process: the server that `pg_ctl start` leaves running
    //     inherits the descriptors through which Process learns that its child ended.
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("sharing-pg-output-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // NB: And nothing else: a descriptor of this process that the server inherited — such as
    //     the one through which Foundation's Process learns that another test's program
    //     ended — would stay open as long as the server runs.
    closeDescriptorsFrom3(in: &actions)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // NB: The calling thread may block signals (dispatch's threads do), which the child
    //     would inherit: PgBouncer, which keeps the mask it is given, would ignore SIGTERM.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else { throw ClusterError("Cannot run \(executable): error \(spawned).") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    guard status == 0 else {
      throw ClusterError("\(executable) \(arguments.joined(separator: " ")) failed:\n\(text)")
    }
    return text
  }
}

/// Makes a spawned process close every descriptor from 3 on, with glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
/// does not import.
private func closeDescriptorsFrom3(in actions: inout posix_spawn_file_actions_t) {
  typealias AddCloseFrom =
    @convention(c) (
      UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32
    ) -> Int32
  guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
  _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
}

/// Why a cluster could not be set up.
public struct ClusterError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
