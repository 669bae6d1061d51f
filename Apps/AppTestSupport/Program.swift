public import Foundation
import TestSupport
public import Testing

/// One of the package's commands, as `swift build` left it next to the test bundle.
///
/// ```swift
/// let todos = try Program("todos")
/// let run = try await todos.run(["--file", file.path, "list"], in: directory)
/// #expect(run.status == 0)
/// ```
///
/// A program runs as it would in a terminal: without the variables that tell a process it
/// runs tests, and with `HOME`, `XDG_CONFIG_HOME` and `XDG_DATA_HOME` inside the test's
/// temporary directory, so it never touches the real home directory.
public struct Program: Sendable {
  /// The executable.
  public let url: URL

  /// Finds a command built next to the test bundle.
  ///
  /// - Parameter name: The name of the command, such as `todos`.
  /// - Throws: An error recorded as a test failure if the command was not built.
  public init(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    url = try #require(
      executableBuiltBesideTheTests(named: name),
      "'\(name)' was not built next to the tests",
      sourceLocation: sourceLocation
    )
  }

  /// Starts the program; its output goes to files in `directory`.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments.
  ///   - directory: The test's temporary directory: home directory, working directory and
  ///     place of the output files.
  ///   - environment: Variables to set in addition to the usual ones.
  ///   - isUnprivileged: Whether file permissions must apply to the program as to any user:
  ///     run by root, it then runs as `nobody`, whom a read-only directory stops.
  /// - Returns: The running program.
  public func start(
    _ arguments: [String],
    in directory: TemporaryDirectory,
    environment: [String: String] = [:],
    isUnprivileged: Bool = false
  ) throws -> RunningProgram {
    let (executable, arguments) =
      isUnprivileged && getuid() == 0
      ? (
        URL(fileURLWithPath: "/usr/bin/setpriv"),
        ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", url.path] + arguments
      )
      : (url, arguments)
    return try RunningProgram(
      executable: executable,
      arguments: arguments,
      directory: directory,
      environment: Self.environment(in: directory).merging(environment) { $1 }
    )
  }

  /// Runs the program to completion.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments.
  ///   - directory: The test's temporary directory.
  ///   - environment: Variables to set in addition to the usual ones.
  ///   - isUnprivileged: Whether file permissions must apply to the program as to any user
  ///     (see ``start(_:in:environment:isUnprivileged:)``).
  ///   - input: Text for its standard input, which is then closed.
  ///   - timeout: How long it may run before it is killed and the test fails.
  /// - Returns: Its exit status and output.
  public func run(
    _ arguments: [String],
    in directory: TemporaryDirectory,
    environment: [String: String] = [:],
    isUnprivileged: Bool = false,
    input: String = "",
    timeout: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> ProgramRun {
    let program = try start(
      arguments,
      in: directory,
      environment: environment,
      isUnprivileged: isUnprivileged
    )
    program.write(input)
    program.closeInput()
    return await program.finish(timeout: timeout, sourceLocation: sourceLocation)
  }

  private static func environment(in directory: TemporaryDirectory) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    // NB: The test runner's variables would make the program think it runs tests, and use
    //     test dependencies.
    for key in environment.keys where key.hasPrefix("XCTest") { environment[key] = nil }
    environment["TODOS_FILE"] = nil
    environment["HOME"] = directory.file("home").path
    environment["XDG_CONFIG_HOME"] = directory.file("config").path
    environment["XDG_DATA_HOME"] = directory.file("data").path
    // NB: Under the thread sanitizer the program reports what the test process reports; its
    //     exit status must still tell whether it did its job.
    environment["TSAN_OPTIONS"] = [environment["TSAN_OPTIONS"], "exitcode=0"]
      .compactMap { $0 }.joined(separator: ":")
    return environment
  }
}

/// How a program ended.
public struct ProgramRun: Sendable {
  /// The exit status; the signal number if ``isSignalled``; `-1` if it was killed for running
  /// too long.
  public let status: Int32
  /// Whether a signal it did not handle ended it.
  public let isSignalled: Bool
  /// Everything it wrote to standard output.
  public let output: String
  /// Everything it wrote to standard error.
  public let errorOutput: String
}
