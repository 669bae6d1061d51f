import Foundation
import TestSupport
public import Testing

/// A program started by ``Program/start(_:in:environment:isUnprivileged:)``.
///
/// Its standard output and error go to files rather than pipes, so that it never blocks on
/// output nobody reads; its standard input is a pipe the test writes to.
public final class RunningProgram {
  private let process = Process()
  private let input = Pipe()
  private let outputFile: URL
  private let errorFile: URL

  init(
    executable: URL,
    arguments: [String],
    directory: TemporaryDirectory,
    environment: [String: String]
  ) throws {
    let name = "\(executable.lastPathComponent)-\(UUID().uuidString)"
    outputFile = directory.file("\(name).out")
    errorFile = directory.file("\(name).err")
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    let output = try FileHandle(forWritingTo: outputFile)
    let errors = try FileHandle(forWritingTo: errorFile)
    defer {
      try? output.close()
      try? errors.close()
    }
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory.url
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  /// Everything the program wrote to standard output so far.
  public var output: String { Self.text(of: outputFile) }

  /// Everything the program wrote to standard error so far.
  public var errorOutput: String { Self.text(of: errorFile) }

  /// Writes text to the program's standard input.
  ///
  /// - Parameter text: The text, such as a line ending in `"\n"`.
  public func write(_ text: String) {
    try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Closes the program's standard input: it reads the end of input.
  public func closeInput() {
    try? input.fileHandleForWriting.close()
  }

  /// Sends a signal to the program, such as `SIGTERM`.
  ///
  /// - Parameter signal: The signal number.
  public func send(_ signal: Int32) {
    kill(process.processIdentifier, signal)
  }

  /// One of the program's outputs.
  public enum Output: Sendable {
    /// Standard output.
    case standardOutput
    /// Standard error.
    case standardError
  }

  /// Waits until what the program wrote satisfies a condition; records an issue if it does
  /// not within `timeout`.
  ///
  /// - Parameters:
  ///   - description: What is awaited, for the failure message.
  ///   - output: The output to look at: standard output unless said otherwise.
  ///   - timeout: How long to wait: generous, as the condition usually holds in milliseconds.
  ///   - condition: A condition on the text written so far.
  /// - Returns: Whether the condition held in time.
  @discardableResult
  public func waitForOutput(
    _ description: String,
    on output: Output = .standardOutput,
    timeout: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation,
    until condition: (String) -> Bool
  ) async -> Bool {
    await wait(for: description, timeout: timeout, sourceLocation: sourceLocation) {
      condition(output == .standardOutput ? self.output : errorOutput)
    }
  }

  private func wait(
    for description: String,
    timeout: Duration,
    sourceLocation: SourceLocation,
    until condition: () -> Bool
  ) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
      let hasExited = process.end != nil
      // NB: Output written just before exiting is in the file once the process has exited.
      if hasExited, condition() { return true }
      guard !hasExited, ContinuousClock.now < deadline else {
        Issue.record(
          """
          \(hasExited ? "The program exited" : "Timed out") waiting for \(description).
          Output so far:
          \(output)
          Errors so far:
          \(errorOutput)
          """,
          sourceLocation: sourceLocation
        )
        return false
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return true
  }

  /// Waits for the program to exit; kills it and records an issue if it runs longer than
  /// `timeout`.
  ///
  /// - Parameter timeout: How long the program may still run.
  /// - Returns: Its exit status and output.
  public func finish(
    timeout: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> ProgramRun {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let end = process.end {
        closeInput()
        return ProgramRun(
          status: end.status,
          isSignalled: end.isSignalled,
          output: output,
          errorOutput: errorOutput
        )
      }
      guard ContinuousClock.now < deadline else {
        Issue.record("The program did not exit in time", sourceLocation: sourceLocation)
        killAndWaitBriefly()
        return ProgramRun(status: -1, isSignalled: true, output: output, errorOutput: errorOutput)
      }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  deinit {
    // NB: A test that failed before finishing leaves no program behind.
    if process.end == nil { killAndWaitBriefly() }
  }

  /// Kills the program, and waits a few seconds at most for it to exit.
  private func killAndWaitBriefly() {
    send(SIGKILL)
    let deadline = ContinuousClock.now + .seconds(5)
    while process.end == nil, ContinuousClock.now < deadline { usleep(10_000) }
  }

  private static func text(of file: URL) -> String {
    (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }
}
