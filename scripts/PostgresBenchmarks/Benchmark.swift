import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPostgres
import TestSupport

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
    time from the first start to the last exit, process start-up included. Each process counts
    the increments it made, and stops at the first that fails; the total is checked against
    the row.
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
}

/// This executable, run as another process; its standard output is read line by line, and
/// lines can be written to its standard input. What it writes to standard error is kept in a
/// file, shown by ``failure`` if it fails.
final class Child {
  private let process = Process()
  private let output = Pipe()
  private let input = Pipe()
  private let errors = FileManager.default.temporaryDirectory
    .appendingPathComponent("sharing-benchmark-\(UUID().uuidString).stderr")
  private var buffer = Data()

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
    process.arguments = arguments
    process.standardOutput = output
    process.standardInput = input
    guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
      throw BenchmarkError("Cannot create \(errors.path).")
    }
    let errorFile = try FileHandle(forWritingTo: errors)
    defer { try? errorFile.close() }
    process.standardError = errorFile
    try process.run()
  }

  deinit {
    try? FileManager.default.removeItem(at: errors)
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

  /// Waits until it exits, and returns how it ended.
  @discardableResult
  func wait() -> ProcessEnd {
    process.waitUntilEnded()
  }

  /// Once it ended: `nil` if it exited with status 0, else how it ended and the start of what
  /// it wrote to standard error.
  var failure: String? {
    let end = wait()
    guard end.isSignalled || end.status != 0 else { return nil }
    let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    let said = text.split(separator: "\n").prefix(2).joined(separator: " | ")
    let ending = end.isSignalled ? "killed by signal \(end.status)" : "exit status \(end.status)"
    return "\(ending)" + (said.isEmpty ? ", nothing on standard error" : ": \(said)")
  }
}

extension [Double] {
  /// The middle value, or the mean of the two middle ones of an even count.
  var median: Double {
    let sorted = self.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The value below which `percent` percent of the values fall (nearest rank).
  func percentile(_ percent: Double) -> Double {
    let sorted = self.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
  }
}
