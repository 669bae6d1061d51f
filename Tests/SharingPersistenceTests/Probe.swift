import Foundation
import TestSupport
import Testing

/// Runs the `PersistenceProbe` executable that `swift test` builds next to the test bundle.
enum Probe {
  // NB: Types of this module's own, not TestSupport's: a test file using them needs no import.
  struct Run {
    let status: Int32
    /// Whether a signal ended the probe, `status` being the signal's number.
    var isSignalled = false
    let standardError: String
  }

  /// A probe that was started.
  struct Started {
    fileprivate let base: ProbeProcess
    var process: Process { base.process }
  }

  private static let program = ProbeProgram("PersistenceProbe")

  /// Starts the probe with live dependencies.
  static func start(_ arguments: [String]) throws -> Started {
    Started(base: try program.start(arguments))
  }

  /// Waits for a started probe to exit; kills it and records an issue if it runs longer than
  /// `timeout`.
  static func finish(
    _ started: Started,
    timeout: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Run {
    guard let run = await started.base.finish(timeout: timeout) else {
      Issue.record("PersistenceProbe did not exit in time", sourceLocation: sourceLocation)
      return Run(status: -1, standardError: "")
    }
    return Run(
      status: run.status,
      isSignalled: run.end.isSignalled,
      standardError: run.standardError
    )
  }

  /// Runs the probe to completion.
  static func run(
    _ arguments: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    await finish(try start(arguments), sourceLocation: sourceLocation)
  }
}
