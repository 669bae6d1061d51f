import Foundation
import Testing

/// Runs the `PersistenceProbe` executable that `swift test` builds next to the test bundle.
enum Probe {
  struct Run {
    let status: Int32
    let standardError: String
  }

  /// The probe executable, found next to the test bundle (or one of its parent directories).
  static let executable: URL? = {
    let fileManager = FileManager.default
    let starts = [Bundle.main.executableURL] + Bundle.allBundles.map(\.bundleURL)
    for start in starts.compactMap({ $0?.resolvingSymlinksInPath() }) {
      var directory = start.deletingLastPathComponent()
      for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("PersistenceProbe")
        if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
      }
    }
    return nil
  }()

  /// Starts the probe with live dependencies.
  static func start(_ arguments: [String]) throws -> (Process, Pipe) {
    let executable = try #require(executable, "PersistenceProbe was not built next to the tests")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    // NB: The test runner's variables would make the probe think it runs tests.
    for key in environment.keys where key.hasPrefix("XCTest") { environment[key] = nil }
    environment["SWIFT_DEPENDENCIES_CONTEXT"] = "live"
    process.environment = environment
    let standardError = Pipe()
    process.standardError = standardError
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return (process, standardError)
  }

  /// Waits for a started probe to exit; terminates it and records an issue if it runs longer
  /// than `timeout`.
  static func finish(
    _ started: (Process, Pipe),
    timeout: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Run {
    let (process, standardError) = started
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
      guard ContinuousClock.now < deadline else {
        process.terminate()
        Issue.record("PersistenceProbe did not exit in time", sourceLocation: sourceLocation)
        break
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
    process.waitUntilExit()
    let output = standardError.fileHandleForReading.readDataToEndOfFile()
    return Run(status: process.terminationStatus, standardError: text(output) ?? "")
  }

  /// Runs the probe to completion.
  static func run(
    _ arguments: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    await finish(try start(arguments), sourceLocation: sourceLocation)
  }
}
