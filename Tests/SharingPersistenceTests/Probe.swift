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

  /// A probe that was started.
  struct Started {
    let process: Process
    let standardError: URL
  }

  /// Starts the probe with live dependencies.
  static func start(_ arguments: [String]) throws -> Started {
    let executable = try #require(executable, "PersistenceProbe was not built next to the tests")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    // NB: The test runner's variables would make the probe think it runs tests.
    for key in environment.keys where key.hasPrefix("XCTest") { environment[key] = nil }
    environment["SWIFT_DEPENDENCIES_CONTEXT"] = "live"
    // NB: Under the thread sanitizer the probe reports what the test process reports; its
    //     exit status must still tell whether it did its job.
    environment["TSAN_OPTIONS"] = [environment["TSAN_OPTIONS"], "exitcode=0"]
      .compactMap { $0 }.joined(separator: ":")
    process.environment = environment
    // NB: A file, not a pipe: a full pipe would block the probe until it is read.
    let standardError = FileManager.default.temporaryDirectory
      .appendingPathComponent("PersistenceProbe-\(UUID().uuidString).log")
    try Data().write(to: standardError)
    let handle = try FileHandle(forWritingTo: standardError)
    defer { try? handle.close() }
    process.standardError = handle
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return Started(process: process, standardError: standardError)
  }

  /// Waits for a started probe to exit; kills it and records an issue if it runs longer than
  /// `timeout`.
  static func finish(
    _ started: Started,
    timeout: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Run {
    let process = started.process
    defer { try? FileManager.default.removeItem(at: started.standardError) }
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
      guard ContinuousClock.now < deadline else {
        Issue.record("PersistenceProbe did not exit in time", sourceLocation: sourceLocation)
        kill(process.processIdentifier, SIGKILL)
        return Run(status: -1, standardError: "")
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
    let output = try? Data(contentsOf: started.standardError)
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
