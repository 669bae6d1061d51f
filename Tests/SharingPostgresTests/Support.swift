import Foundation
import PostgresTestSupport
import SharingDependencies
import SharingPostgres
import Testing

/// Waits until a condition holds; records an issue, with `state`, if it does not within
/// `timeout` (generous: it holds within milliseconds unless something is broken).
@discardableResult
func eventually(
  _ description: String,
  timeout: Duration = .seconds(30),
  _ state: () -> String = { "" },
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while try !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record(
        "Timed out waiting for \(description). \(state())",
        sourceLocation: sourceLocation
      )
      return false
    }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return true
}

/// A table of its own for one test, on the test process's cluster.
struct TestTable {
  let cluster: PostgresCluster
  let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

  init(cluster: PostgresCluster? = nil) throws {
    self.cluster = try cluster ?? PostgresCluster.shared()
  }

  /// A database of the table: connections of its own, as another process would have.
  func database(throttle: Duration = .zero) -> PostgresDatabase {
    .server(cluster.connectionString, table: name, throttle: throttle)
  }

  /// Runs `operation` with the table's database as the default: keys created in it live there.
  func withDatabase<R>(_ operation: () async throws -> R) async rethrows -> R {
    try await withDependencies {
      $0.defaultPostgresDatabase = database()
    } operation: {
      try await operation()
    }
  }

  /// Runs `operation` with the table's database as the default.
  func withDatabase<R>(_ operation: () throws -> R) rethrows -> R {
    try withDependencies {
      $0.defaultPostgresDatabase = database()
    } operation: {
      try operation()
    }
  }

  /// The JSON text of a key's row, read with `psql`, or `nil` if there is none.
  func storedJSON(_ key: String) throws -> String? {
    let text = try cluster.psql("SELECT value::text FROM \(name) WHERE key = '\(key)'")
    return text.isEmpty ? nil : text
  }
}

/// Runs the `PostgresProbe` executable that `swift test` builds next to the test bundle.
enum Probe {
  /// A running probe and the file its standard error goes to.
  typealias Started = (process: Process, log: URL)

  static let executable: URL? = {
    let starts = [Bundle.main.executableURL] + Bundle.allBundles.map(\.bundleURL)
    for start in starts.compactMap({ $0?.resolvingSymlinksInPath() }) {
      var directory = start.deletingLastPathComponent()
      for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("PostgresProbe")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
      }
    }
    return nil
  }()

  /// Starts the probe on a table; its standard error goes to a file, read by ``finish(_:)``.
  static func start(
    _ command: String,
    _ table: TestTable,
    _ arguments: [String]
  ) throws
    -> Started
  {
    let executable = try #require(Self.executable, "PostgresProbe was not built")
    let process = Process()
    process.executableURL = executable
    process.arguments = [command, table.cluster.connectionString, table.name] + arguments
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("XCTest") { environment[key] = nil }
    environment["SWIFT_DEPENDENCIES_CONTEXT"] = "live"
    environment["TSAN_OPTIONS"] = [environment["TSAN_OPTIONS"], "exitcode=0"]
      .compactMap { $0 }.joined(separator: ":")
    process.environment = environment
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("PostgresProbe-\(UUID().uuidString).log")
    try Data().write(to: log)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }
    process.standardError = handle
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return (process, log)
  }

  /// Waits for a started probe; kills it and records an issue past `timeout`. Returns its
  /// exit status and standard error.
  static func finish(
    _ started: Started,
    timeout: Duration = .seconds(120),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> (status: Int32, errors: String) {
    let (process, log) = started
    defer { try? FileManager.default.removeItem(at: log) }
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
      guard ContinuousClock.now < deadline else {
        Issue.record("PostgresProbe did not exit in time", sourceLocation: sourceLocation)
        kill(process.processIdentifier, SIGKILL)
        return (-1, "")
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
    let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return (process.terminationStatus, errors)
  }
}
