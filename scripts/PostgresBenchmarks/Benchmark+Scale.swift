import Foundation
import PostgresTestSupport

/// The measurements of many writers: commits of processes on keys of their own beside
/// pgbench on the same cluster, and coordinated changes of one key over a slow network.
extension Benchmark {
  static let scaleMethod = """
    Commits: each of 16 processes holds a key of its own in a `@SharedReader` (so each also
    listens to its key's bucket, as a program would, and hears the writes of the others whose
    keys share a bucket with its own; "none listening": no `@SharedReader`, so no listening
    connection), and for the given seconds saves the next
    integer with the key (`save(_:context:continuation:)`, as `save()` does), waiting for each
    commit, in a task off the main actor, as a server's request handlers run; the rate is the total over the seconds, all processes started together once
    connected. pgbench: 16 clients (2 threads), each running `UPDATE bench_plain SET value =
    value + 1 WHERE id = :client_id + 1` (a plain table, no trigger, the simple protocol) for
    the same seconds, on the same cluster. The three run one after the other, in rounds (3
    unless `--rounds` says otherwise), pgbench last in odd rounds and first in even ones: each rate printed is the median over the rounds, each
    share of pgbench the median of the rounds' shares, a round's library rate over the same
    round's pgbench, every round's listed. "notifying": the same on a table whose trigger
    calls `pg_notify` for each row, as the first release's trigger did. Coordinated changes: 4 processes run
    `withTransaction { $0 += 1 }` on one coordinated key through a TCP relay that delays every
    chunk by 25 ms each way (50 ms round trips), for the given seconds, once connected; round
    trips are counted by the relay (a client speaking after the server did) over the same
    time, and divided by the changes made.
    """

  /// One round of the commits row: the 16 processes none listening, each listening, and
  /// pgbench's plain updates, for `seconds` each, one after the other, on one cluster.
  struct CommitRound {
    let quiet: Double
    let listening: Double
    let pgbench: Double
  }

  /// `count` rounds of the commits row, one after the other: a round's figures are compared
  /// with its own pgbench, which ran beside them, rather than with another round's. Odd
  /// rounds run pgbench last, even ones first, so that a drift of the machine does not fall
  /// on one side only.
  static func commitRounds(
    _ cluster: PostgresCluster,
    seconds: Int,
    count: Int
  ) throws -> [CommitRound] {
    try (1...count).map { round in
      let isPgbenchFirst = round.isMultiple(of: 2)
      var pgbench = 0.0
      if isPgbenchFirst { pgbench = try pgbenchUpdates(cluster, seconds: seconds, round: round) }
      let quiet = try ownKeyCommits(cluster, seconds: seconds, listening: false, round: round)
      let listening = try ownKeyCommits(cluster, seconds: seconds, listening: true, round: round)
      if !isPgbenchFirst { pgbench = try pgbenchUpdates(cluster, seconds: seconds, round: round) }
      return CommitRound(quiet: quiet, listening: listening, pgbench: pgbench)
    }
  }

  /// Commits per second of 16 processes, each writing a key of its own, in a table of round
  /// `round`'s.
  static func ownKeyCommits(
    _ cluster: PostgresCluster,
    seconds: Int,
    listening: Bool,
    round: Int
  ) throws -> Double {
    let table = (listening ? "commits_" : "quiet_commits_") + "\(round)"
    let children = try (0..<16).map { index in
      try Child([
        "write", cluster.connectionString, table, "\(index)", "\(seconds)",
        listening ? "listening" : "quiet",
      ])
    }
    return Double(try runTogether(children)) / Double(seconds)
  }

  /// Transactions per second of pgbench's plain updates, 16 clients; with `notifying`, the
  /// table has a trigger that notifies for each row, as the first release's did.
  static func pgbenchUpdates(
    _ cluster: PostgresCluster,
    seconds: Int,
    notifying: Bool = false,
    round: Int = 1
  ) throws -> Double {
    let table = (notifying ? "bench_notifying_" : "bench_plain_") + "\(round)"
    try cluster.psql(
      """
      CREATE TABLE \(table) (id int PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO \(table) SELECT id, 0 FROM generate_series(1, 16) AS id;
      """
    )
    if notifying {
      try cluster.psql(
        """
        CREATE FUNCTION bench_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify('bench', NEW.id::text); RETURN NEW; END $$;
        CREATE TRIGGER bench_notify AFTER UPDATE ON \(table)
        FOR EACH ROW EXECUTE FUNCTION bench_notify();
        """
      )
    }
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("sharing-pgbench-\(UUID().uuidString).sql")
    try Data(
      "UPDATE \(table) SET value = value + 1 WHERE id = :client_id + 1;\n".utf8
    ).write(to: script)
    defer { try? FileManager.default.removeItem(at: script) }
    let text = try cluster.pgbench(
      ["-n", "-c", "16", "-j", "2", "-T", "\(seconds)", "-f", script.path]
    )
    let line = text.split(separator: "\n").first { $0.hasPrefix("tps = ") }
    guard let line, let tps = Double(line.dropFirst(6).prefix { $0 != " " }) else {
      throw BenchmarkError("pgbench printed no tps:\n\(text)")
    }
    return tps
  }

  /// Coordinated changes per second of 4 processes on one key through a relay adding 25 ms
  /// each way, round trips per change, what the row holds, and whether it holds every change
  /// made (the timed ones and each process's first).
  static func coordinatedChangesOverASlowNetwork(
    _ cluster: PostgresCluster,
    seconds: Int
  ) throws -> (rate: Double, roundTrips: Double, stored: String, addsUp: Bool) {
    let relay = try Relay(to: .loopback(port: cluster.port))
    defer { relay.stop() }
    relay.delay = .milliseconds(25)
    let connection = "host=127.0.0.1 port=\(relay.port) user=sharing dbname=postgres"
    let children = try (0..<4).map { _ in
      try Child(["coordinate", connection, "coordinated", "\(seconds)"])
    }
    var before = 0
    let changes = try runTogether(children) { before = relay.roundTrips }
    let roundTrips = relay.roundTrips - before
    children.forEach { $0.send("exit") }
    children.forEach { $0.wait() }
    let stored = try cluster.psql("SELECT value FROM coordinated WHERE key = 'count'")
    return (
      Double(changes) / Double(seconds), Double(roundTrips) / Double(changes), stored,
      Int(stored) == changes + children.count
    )
  }

  /// Waits until each child says `ready`, tells them all to go, and returns the sum of the
  /// counts they print when done.
  private static func runTogether(
    _ children: [Child],
    starting: () -> Void = {}
  ) throws -> Int {
    for child in children {
      guard let line = child.readLine() else {
        throw BenchmarkError("A process could not start: \(child.failure ?? "it exited").")
      }
      guard line == "ready" else { throw BenchmarkError("A process printed '\(line)'.") }
    }
    starting()
    children.forEach { $0.send("go") }
    var total = 0
    for child in children {
      guard let line = child.readLine() else {
        throw BenchmarkError("A process failed: \(child.failure ?? "it printed no count").")
      }
      guard let count = Int(line) else { throw BenchmarkError("A process printed '\(line)'.") }
      total += count
    }
    return total
  }
}

/// Why a measurement could not be made.
struct BenchmarkError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
