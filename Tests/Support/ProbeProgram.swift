public import Foundation

/// A helper program that `swift test` builds beside the test bundle, which tests run as
/// another process: `PersistenceProbe`, `PostgresProbe`.
public struct ProbeProgram: Sendable {
  /// The executable's name.
  public let name: String

  /// The program built as `name`.
  public init(_ name: String) {
    self.name = name
  }

  /// The executable, found beside the test bundle or in one of its parent directories, or
  /// `nil` if it was not built.
  public var executable: URL? {
    executableBuiltBesideTheTests(named: name)
  }

  /// The variable that tells a program which process started it (``exitWhenTheParentExits()``).
  public static let parentVariable = "SHARING_PROBE_PARENT"

  /// The environment a program runs in: this process's, with live dependencies.
  public static var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    // NB: The test runner's variables would make the probe think it runs tests.
    for key in environment.keys where key.hasPrefix("XCTest") { environment[key] = nil }
    environment["SWIFT_DEPENDENCIES_CONTEXT"] = "live"
    // NB: Under the thread sanitizer the probe reports what the test process reports; its
    //     exit status must still tell whether it did its job.
    environment["TSAN_OPTIONS"] = [environment["TSAN_OPTIONS"], "exitcode=0"]
      .compactMap { $0 }.joined(separator: ":")
    return environment
  }

  /// Starts the program with live dependencies; its standard error goes to a file, read by
  /// ``ProbeProcess/finish(timeout:)``.
  ///
  /// - Throws: ``ProbeNotBuilt`` if there is no executable, or the error of starting it.
  public func start(_ arguments: [String]) throws -> ProbeProcess {
    guard let executable else { throw ProbeNotBuilt(name: name) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = Self.environment
    environment[Self.parentVariable] = String(getpid())
    process.environment = environment
    // NB: A file, not a pipe: a full pipe would block the probe until it is read.
    let standardError = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(name)-\(UUID().uuidString).log")
    try Data().write(to: standardError)
    let handle = try FileHandle(forWritingTo: standardError)
    defer { try? handle.close() }
    process.standardError = handle
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      try? FileManager.default.removeItem(at: standardError)
      throw error
    }
    return ProbeProcess(process: process, standardError: standardError)
  }
}

/// A ``ProbeProgram`` that was started.
public struct ProbeProcess {
  /// The running process.
  public let process: Process
  /// The file its standard error goes to, removed by ``finish(timeout:)``.
  public let standardError: URL

  /// Waits for the process to exit, and returns its status and standard error; past
  /// `timeout`, kills it and returns `nil`.
  public func finish(timeout: Duration) async -> ProbeRun? {
    defer { try? FileManager.default.removeItem(at: standardError) }
    let deadline = ContinuousClock.now + timeout
    while true {
      if let end = process.end {
        let output = (try? Data(contentsOf: standardError)) ?? Data()
        return ProbeRun(end: end, standardError: String(decoding: output, as: UTF8.self))
      }
      guard ContinuousClock.now < deadline else {
        kill(process.processIdentifier, SIGKILL)
        return nil
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }
}

/// How a ``ProbeProcess`` ended.
public struct ProbeRun: Sendable {
  /// How it ended.
  public let end: ProcessEnd
  /// Its exit status, or the signal that ended it.
  public var status: Int32 { end.status }
  /// What it wrote to standard error.
  public let standardError: String
}

/// The error of starting a ``ProbeProgram`` that was not built.
public struct ProbeNotBuilt: Error, CustomStringConvertible {
  /// The program's name.
  public let name: String

  public var description: String { "\(name) was not built next to the tests" }
}

/// The executable `name` that `swift build` left beside the test bundle (or in one of its
/// parent directories), or `nil` if it was not built.
public func executableBuiltBesideTheTests(named name: String) -> URL? {
  let starts = [Bundle.main.executableURL] + Bundle.allBundles.map(\.bundleURL)
  for start in starts.compactMap({ $0?.resolvingSymlinksInPath() }) {
    var directory = start.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
  }
  return nil
}
