// Benchmarks of SharingPostgres between processes, on a throwaway PostgreSQL cluster that
// listens on 127.0.0.1 with the server's default durability (fsync on). Run by
// scripts/benchmark-postgres; the same executable plays the other processes.
//
//   PostgresBenchmarks [--changes <n>] [--increments <n>]
//   PostgresBenchmarks watch <connection> <table> <count>        (a second process)
//   PostgresBenchmarks increment <connection> <table> <count>    (one of four processes)

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
  useDatabase(arguments[1], arguments[2])
  let key: CoordinatedPostgresKey<Int> = .postgres("increments", .coordinated)
  var value = 0
  for _ in 0..<(Int(arguments[3]) ?? 0) {
    try key.withTransaction(&value) { $0 += 1 }
  }

default:
  let options = Dictionary(
    stride(from: 0, to: arguments.count - 1, by: 2).map { (arguments[$0], arguments[$0 + 1]) }
  ) { $1 }
  let changes = Int(options["--changes"] ?? "") ?? 300
  let increments = Int(options["--increments"] ?? "") ?? 500
  // NB: Removed at the end, or when the program exits after an error.
  let cluster = try await PostgresCluster.start(listensOnLoopback: true, fsync: true)
  let version = try cluster.psql("SHOW server_version")
  print("SharingPostgres benchmarks: PostgreSQL \(version), TCP on 127.0.0.1, fsync on")
  print("")
  let latencies = try await Benchmark.playbackLatencies(cluster, changes: changes)
  print(
    String(
      format: "commit-to-playback latency, 2 processes, %d changes: p50 %.2f ms, p99 %.2f ms",
      changes,
      latencies.percentile(50),
      latencies.percentile(99)
    )
  )
  let (rate, total, stored) = try Benchmark.coordinatedIncrements(cluster, each: increments)
  print(
    String(
      format: "coordinated increments, 4 processes: %.0f per second (%d made, %@ stored)",
      rate,
      total,
      stored
    )
  )
  print("")
  print(Benchmark.method)
  await cluster.remove()
}
