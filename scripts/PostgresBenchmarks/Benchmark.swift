import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPostgres

/// The two measurements, each run against processes this executable starts.
enum Benchmark {
  static let method = """
    Method: a writer process changes a key with `$value.withLock` and `save()` (which commits
    at once), then waits until a second process, holding the key in a `SharedReader` and
    iterating `$value.values`, reports the new value; the latency is the time from the
    `withLock` call to that playback, read on the machine's monotonic clock in both processes.
    The first 20 changes warm up and are not counted. Coordinated increments: 4 processes
    each run the given number of `withTransaction { $0 += 1 }` on one coordinated key (two
    round trips: BEGIN, insert if missing, SELECT … FOR UPDATE, draw the version; then UPDATE,
    COMMIT and the notification), all started together; the rate is the total over the wall
    time from the first start to the last exit, process start-up included.
    """

  /// Commit-to-playback latencies in milliseconds.
  static func playbackLatencies(_ cluster: PostgresCluster, changes: Int) async throws -> [Double] {
    let table = "latency"
    let warmUp = 20
    let total = changes + warmUp
    let watcher = try Child(["watch", cluster.connectionString, table, "\(total)"])
    _ = watcher.readLine()  // "ready"
    return try await withDependencies {
      $0.defaultPostgresDatabase = .server(cluster.connectionString, table: table, throttle: .zero)
    } operation: {
      @Shared(.postgres("latency")) var value = 0
      var latencies: [Double] = []
      for change in 1...total {
        let start = monotonicNanoseconds()
        $value.withLock { $0 = change }
        try await $value.save()
        var seen: UInt64 = 0
        while let line = watcher.readLine() {
          let parts = line.split(separator: " ")
          if parts.count == 2, Int(parts[0]) == change, let time = UInt64(parts[1]) {
            seen = time
            break
          }
        }
        if change > warmUp { latencies.append(Double(Int64(seen) - Int64(start)) / 1e6) }
      }
      watcher.wait()
      return latencies
    }
  }

  /// Increments per second from 4 processes, how many were made, and what the row holds.
  static func coordinatedIncrements(
    _ cluster: PostgresCluster,
    each increments: Int
  ) throws -> (rate: Double, total: Int, stored: String) {
    let start = monotonicNanoseconds()
    let children = try (0..<4).map { _ in
      try Child(["increment", cluster.connectionString, "increments", "\(increments)"])
    }
    children.forEach { $0.wait() }
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    let stored = try cluster.psql("SELECT value FROM increments WHERE key = 'increments'")
    return (Double(4 * increments) / seconds, 4 * increments, stored)
  }
}

/// This executable, run as another process; its standard output is read line by line, and
/// lines can be written to its standard input.
final class Child {
  private let process = Process()
  private let output = Pipe()
  private let input = Pipe()
  private var buffer = Data()

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
    process.arguments = arguments
    process.standardOutput = output
    process.standardInput = input
    try process.run()
  }

  /// Writes a line to its standard input.
  func send(_ line: String) {
    input.fileHandleForWriting.write(Data("\(line)\n".utf8))
  }

  /// The next line it printed, or `nil` at the end.
  func readLine() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { return nil }
      buffer.append(chunk)
    }
  }

  func wait() {
    process.waitUntilExit()
  }
}

extension [Double] {
  /// The value below which `percent` percent of the values fall (nearest rank).
  func percentile(_ percent: Double) -> Double {
    let sorted = self.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
  }
}
