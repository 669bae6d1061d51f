import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import SharingPostgres
import TestSupport
import Testing

/// Waits until a condition holds; records an issue, with `state`, if it does not within
/// `timeout` (generous: it holds within milliseconds unless something is broken), scaled
/// under ThreadSanitizer.
@discardableResult
func eventually(
  _ description: String,
  timeout: Duration = .seconds(30),
  _ state: () -> String = { "" },
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout * ThreadSanitizer.timeScale
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

/// What a shared value says of its store, for a test's failure message.
func status<Value>(_ shared: Shared<Value>) -> String {
  "loading: \(shared.isLoading), loadError: \(shared.loadError.map { "\($0)" } ?? "none"), "
    + "saveError: \(shared.saveError.map { "\($0)" } ?? "none")"
}

/// A table of its own for one test, on the test process's cluster.
struct TestTable {
  let cluster: PostgresCluster
  let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

  init(cluster: PostgresCluster? = nil) async throws {
    if let cluster {
      self.cluster = cluster
    } else {
      self.cluster = try await PostgresCluster.shared()
    }
  }

  /// How long a test's database waits for the network unless the test sets its own: long,
  /// since only tests of timeouts want one to pass, and a loaded machine (a test run beside
  /// a build, under ThreadSanitizer) can stall an answer past the default
  /// ``PostgresDatabase/Configuration/timeout`` (2 s).
  static let patientTimeout = Duration.seconds(60)

  /// A database of the table: connections of its own, as another process would have.
  func database(throttle: Duration = .zero) -> PostgresDatabase {
    database(cluster.connectionString) { $0.throttle = throttle }
  }

  /// A database of the table with settings of its own, reached through a relay, say.
  func database(
    _ connectionString: String,
    configure: (inout PostgresDatabase.Configuration) -> Void = { _ in }
  ) -> PostgresDatabase {
    var configuration = PostgresDatabase.Configuration(
      connectionString,
      table: name,
      throttle: .zero,
      timeout: Self.patientTimeout
    )
    configure(&configuration)
    return .server(configuration)
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

  /// The JSON and the version of the row of `key`, for a failure message.
  func storedRow(_ key: String) -> String {
    let row = try? cluster.psql(
      "SELECT value::text || ', version ' || version FROM \(name) WHERE key = '\(key)'"
    )
    return row.map { $0.isEmpty ? "no row" : $0 } ?? "unreadable"
  }
}

/// Runs the `PostgresProbe` executable that `swift test` builds next to the test bundle.
enum Probe {
  typealias Started = ProbeProcess

  private static let program = ProbeProgram("PostgresProbe")

  /// Starts the probe on a table; its standard error goes to a file, read by ``finish(_:)``.
  static func start(
    _ command: String,
    _ table: TestTable,
    _ arguments: [String]
  ) throws
    -> Started
  {
    try program.start([command, table.cluster.connectionString, table.name] + arguments)
  }

  /// Starts the probe on a table, reaching the server through `connectionString`.
  static func start(
    _ command: String,
    connectionString: String,
    table: String,
    _ arguments: [String]
  ) throws -> Started {
    try program.start([command, connectionString, table] + arguments)
  }

  /// Waits for a started probe; kills it and records an issue past `timeout`. Returns its
  /// exit status and standard error.
  static func finish(
    _ started: Started,
    timeout: Duration = .seconds(120),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> (status: Int32, errors: String) {
    guard let run = await started.finish(timeout: timeout) else {
      Issue.record("PostgresProbe did not exit in time", sourceLocation: sourceLocation)
      return (-1, "")
    }
    return (run.status, run.standardError)
  }
}

/// Saves a value with a key, as ``/SharingCore/Shared/save()`` does, without a shared value
/// (whose subscription would use connections of its own).
func save<Value>(_ value: Value, with key: PostgresKey<Value>) async throws {
  try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
    key.save(
      value,
      context: .userInitiated,
      continuation: SaveContinuation { done.resume(with: $0) }
    )
  }
}
