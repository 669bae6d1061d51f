import Foundation
import PostgresTestSupport
import SharingCore
import SharingPostgres

/// Coordinated increments from 4 processes on one key, counted by the processes that made
/// them and checked against the row.
extension Benchmark {
  /// What the processes made and what the row holds.
  struct Increments {
    /// The increments each process asked for.
    let each: Int
    /// The wall time from the first start to the last exit, in seconds.
    let seconds: Double
    /// The increments whose transaction returned, in all.
    let made: Int
    /// For each process that stopped early: which one, after how many, and why.
    let failures: [String]
    /// The row's value, as `psql` printed it.
    let stored: String

    /// Whether the row holds exactly what was made. A process that failed may have committed
    /// its failing change (its commit made, its answer lost): each adds one it may hold.
    var addsUp: Bool {
      guard let stored = Int(stored) else { return made == 0 }
      return (made...(made + failures.count)).contains(stored)
    }

    /// The row of the benchmark's output.
    var line: String {
      let counts = "\(made) made, \(stored.isEmpty ? "no row" : stored) stored"
      guard failures.isEmpty, addsUp else {
        let verdict =
          addsUp
          ? "nothing lost: each process that failed may have committed its failing change"
          : "NOT EXACT"
        let outcome =
          failures.isEmpty
          ? "every process finished" : "FAILED, \(failures.count) of 4 stopped early"
        return "coordinated increments, 4 processes: \(outcome) (\(4 * each) asked, \(counts); "
          + "\(verdict))"
          + failures.map { "\n  \($0)" }.joined()
      }
      return String(
        format: "coordinated increments, 4 processes: %.0f per second (%@)",
        Double(made) / seconds,
        counts
      )
    }
  }

  /// Runs 4 processes each making `each` increments, all started together.
  static func coordinatedIncrements(_ cluster: PostgresCluster, each: Int) throws -> Increments {
    let start = monotonicNanoseconds()
    let children = try (0..<4).map { _ in
      try Child(["increment", cluster.connectionString, "increments", "\(each)"])
    }
    var made = 0
    var failures: [String] = []
    for (index, child) in children.enumerated() {
      let count = child.readLine().flatMap { Int($0) }
      made += count ?? 0
      if let failure = child.failure {
        failures.append("process \(index + 1) after \(count ?? 0) increments: \(failure)")
      } else if count == nil {
        failures.append("process \(index + 1) printed no count")
      }
    }
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    let stored = try cluster.psql("SELECT value FROM increments WHERE key = 'increments'")
    return Increments(
      each: each,
      seconds: seconds,
      made: made,
      failures: failures,
      stored: stored
    )
  }

  /// One of the 4 processes: makes `count` increments, stopping at the first that fails, and
  /// prints how many it made; if one failed, also prints the error to standard error and
  /// exits with status 1.
  static func increment(_ key: CoordinatedPostgresKey<Int>, count: Int) -> Never {
    var value = 0
    var made = 0
    do {
      for _ in 0..<count {
        try key.withTransaction(&value) { $0 += 1 }
        made += 1
      }
    } catch {
      say("\(made)")
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(1)
    }
    say("\(made)")
    exit(0)
  }
}
