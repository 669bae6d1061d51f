// Benchmarks of SharingPostgres between processes, on a throwaway PostgreSQL cluster that
// listens on 127.0.0.1 with the server's default durability (fsync on). Run by
// scripts/benchmark-postgres; the same executable plays the other processes.
//
//   PostgresBenchmarks [--changes <n>] [--increments <n>] [--seconds <n>] [--rounds <n>]
//                      [--only latency|increments|commits|slow]      (one row or group only)
//   PostgresBenchmarks watch <connection> <table> <count>        (a second process)
//   PostgresBenchmarks increment <connection> <table> <count>    (one of four processes)
//   PostgresBenchmarks write <connection> <table> <i> <seconds> listening|quiet
//                                                                (one of 16 writers)
//   PostgresBenchmarks coordinate <connection> <table> <seconds> (one of 4 changers)

import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPostgres

let arguments = Array(CommandLine.arguments.dropFirst())

/// Nanoseconds on the monotonic clock, which every process of the machine shares.
func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

/// Saves a value with a key, as `save()` does, and returns once it is committed.
func save(_ value: Int, with key: PostgresKey<Int>) async throws {
  try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
    key.save(
      value,
      context: .userInitiated,
      continuation: SaveContinuation { done.resume(with: $0) }
    )
  }
}

/// Saves 1, 2, 3… with a key, each once the last is committed, for `duration`; returns how
/// many it saved. Off the main actor, as a server's request handlers are: each save resumes
/// on the thread that finished it, not on the main thread.
nonisolated func saveEach(with key: PostgresKey<Int>, for duration: Duration) async throws -> Int {
  let end = ContinuousClock.now + duration
  var count = 0
  while ContinuousClock.now < end {
    count += 1
    try await save(count, with: key)
  }
  return count
}

func useDatabase(_ connection: String, _ table: String) {
  prepareDependencies {
    $0.defaultPostgresDatabase = .server(connection, table: table, throttle: .zero)
  }
}

switch arguments.first {
case "watch":
  // Prints "ready", then "<n> <nanoseconds>" as each value n is played back.
  useDatabase(arguments[1], arguments[2])
  @SharedReader(.postgres("latency")) var value = 0
  say("ready")
  let last = Int(arguments[3]) ?? 0
  for await current in $value.values where current > 0 {
    say("\(current) \(monotonicNanoseconds())")
    if current == last { break }
  }

case "increment":
  // Prints how many increments it made; exits with status 1 after the first that failed.
  useDatabase(arguments[1], arguments[2])
  Benchmark.increment(.postgres("increments", .coordinated), count: Int(arguments[3]) ?? 0)

case "write":
  // Says "ready" once connected, then on "go" writes its own key for the seconds given, and
  // prints how many writes it committed.
  useDatabase(arguments[1], arguments[2])
  let name = "w-\(arguments[3])"
  let held = arguments[5] == "listening" ? SharedReader(wrappedValue: 0, .postgres(name)) : nil
  let key: PostgresKey<Int> = .postgres(name)
  try await save(0, with: key)
  say("ready")
  _ = readLine()
  say("\(try await saveEach(with: key, for: .seconds(Int(arguments[4]) ?? 10)))")
  _ = held

case "coordinate":
  // Says "ready" once connected, then on "go" changes the coordinated key for the seconds
  // given, prints how many changes it made, and exits on the next line.
  useDatabase(arguments[1], arguments[2])
  let key: CoordinatedPostgresKey<Int> = .postgres("count", .coordinated)
  var value = 0
  try key.withTransaction(&value) { $0 += 1 }
  say("ready")
  _ = readLine()
  let end = ContinuousClock.now + .seconds(Int(arguments[3]) ?? 10)
  var count = 0
  while ContinuousClock.now < end {
    try key.withTransaction(&value) { $0 += 1 }
    count += 1
  }
  say("\(count)")
  _ = readLine()

default:
  let options = Dictionary(
    stride(from: 0, to: arguments.count - 1, by: 2).map { (arguments[$0], arguments[$0 + 1]) }
  ) { $1 }
  let changes = Int(options["--changes"] ?? "") ?? 300
  let increments = Int(options["--increments"] ?? "") ?? 500
  let seconds = Int(options["--seconds"] ?? "") ?? 10
  let rounds = max(1, Int(options["--rounds"] ?? "") ?? 3)
  let only = options["--only"]
  if let only, !["latency", "increments", "commits", "slow"].contains(only) {
    FileHandle.standardError.write(Data("--only: latency, increments, commits or slow\n".utf8))
    exit(2)
  }
  let runs = { (row: String) in only == nil || only == row }
  // NB: Removed at the end, or when the program exits after an error.
  let cluster = try await PostgresCluster.start(listensOnLoopback: true, fsync: true)
  let version = try cluster.psql("SHOW server_version")
  say("SharingPostgres benchmarks: PostgreSQL \(version), TCP on 127.0.0.1, fsync on")
  say("")
  var failed = false
  if runs("latency") {
    let latencies = try await Benchmark.playbackLatencies(cluster, changes: changes)
    say(
      String(
        format: "commit-to-playback latency, 2 processes, %d changes: p50 %.2f ms, p99 %.2f ms",
        changes,
        latencies.percentile(50),
        latencies.percentile(99)
      )
    )
  }
  if runs("increments") {
    let counted = try Benchmark.coordinatedIncrements(cluster, each: increments)
    say(counted.line)
    failed = failed || !counted.failures.isEmpty || !counted.addsUp
  }
  if runs("commits") {
    let measured = try Benchmark.commitRounds(cluster, seconds: seconds, count: rounds)
    // The median of a figure over the rounds, and its share of pgbench's in each round.
    let summary = { (figure: (Benchmark.CommitRound) -> Double) in
      let shares = measured.map { 100 * figure($0) / $0.pgbench }
      let rounds = shares.map { String(format: "%.0f%%", $0) }.joined(separator: ", ")
      return (measured.map(figure).median, shares.median, rounds)
    }
    let (commits, listeningShare, listeningRounds) = summary(\.listening)
    say(
      String(
        format:
          "commits, 16 processes on keys of their own, each listening: %.0f per second "
          + "(%.1f× 680; %.0f%% of pgbench; rounds: %@)",
        commits,
        commits / 680,
        listeningShare,
        listeningRounds
      )
    )
    let (quiet, quietShare, quietRounds) = summary(\.quiet)
    say(
      String(
        format: "commits, 16 processes on keys of their own, none listening: %.0f per second "
          + "(%.0f%% of pgbench; rounds: %@)",
        quiet,
        quietShare,
        quietRounds
      )
    )
    say(
      String(
        format: "pgbench plain UPDATE, 16 clients: %.0f per second",
        measured.map(\.pgbench).median
      )
    )
    let notifying = try Benchmark.pgbenchUpdates(cluster, seconds: seconds, notifying: true)
    say(
      String(
        format: "pgbench UPDATE with a trigger notifying each row, 16 clients: %.0f per second",
        notifying
      )
    )
  }
  if runs("slow") {
    let slow = try Benchmark.coordinatedChangesOverASlowNetwork(cluster, seconds: seconds)
    say(
      String(
        format: "coordinated changes, 4 processes, one key, 25 ms each way: %.1f per second, "
          + "%.2f round trips per change (%@ stored%@)",
        slow.rate,
        slow.roundTrips,
        slow.stored,
        slow.addsUp ? "" : "; NOT EXACT: the changes made do not add up to it"
      )
    )
    failed = failed || !slow.addsUp
  }
  say("")
  say(Benchmark.method)
  say("")
  say(Benchmark.scaleMethod)
  await cluster.remove()
  if failed { exit(1) }
}
