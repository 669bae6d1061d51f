import Foundation
import TestSupport
import Testing

/// Integration tests: a second process writing a file is killed or signalled, and the file
/// is checked afterwards. Real processes, real disk and real time, with generous deadlines.
@Suite struct CrashSafetyTests {
  /// The file decodes to a whole value after every kill: the last acknowledged one or the
  /// one being written. An acknowledged value is one whose `save()` returned.
  @Test func sigkillDuringWritesNeverTearsTheFile() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("payload.json")
      let acks = directory.file("acks")
      var random = SeededRandom(seed: 0x5EED_0001)
      var previous = 0
      var leftovers = 0
      for round in 1...100 {
        try? FileManager.default.removeItem(at: acks)
        let child = try Probe.start(["file-write-loop", url.path, acks.path])
        await waitUntil(child, "the first acknowledged write") { !acknowledged(acks).isEmpty }
        try await Task.sleep(for: .microseconds(Int.random(in: 0..<20_000, using: &random)))
        _ = kill(child.process.processIdentifier, SIGKILL)
        let run = await Probe.finish(child)
        try #require(
          run.status == SIGKILL && run.isSignalled,
          "kill \(round): the writer exited by itself with status \(run.status): \(run.standardError)"
        )

        let payload = try #require(
          try? JSONDecoder().decode(CrashPayload.self, from: Data(contentsOf: url)),
          "kill \(round): the file does not decode"
        )
        try #require(payload.isConsistent, "kill \(round): the file holds parts of two writes")
        let lastAcknowledged = try #require(acknowledged(acks).last)
        try #require(
          payload.sequence == lastAcknowledged || payload.sequence == lastAcknowledged + 1,
          "kill \(round): the file holds \(payload.sequence), the last acknowledged write was \(lastAcknowledged)"
        )
        try #require(payload.sequence >= previous, "kill \(round): the file went back in time")
        previous = payload.sequence
        leftovers = try temporaryFiles(in: directory).count
        try #require(leftovers <= round, "kill \(round): more temporary files than kills")
      }

      // NB: A temporary file is left by a kill during a write, before its rename. Once it is
      //     old enough not to belong to a live writer, the next process that writes removes it.
      for name in try temporaryFiles(in: directory) {
        try FileManager.default.setAttributes(
          [.modificationDate: Date().addingTimeInterval(-120)],
          ofItemAtPath: directory.file(name).path
        )
      }
      let cleaner = try await Probe.run(["file-write-loop", url.path, acks.path, "1"])
      #expect(cleaner.status == 0, "\(cleaner.standardError)")
      #expect(try temporaryFiles(in: directory) == [])
      let payload = try JSONDecoder().decode(CrashPayload.self, from: Data(contentsOf: url))
      #expect(payload.sequence == previous + 1)
      #expect(payload.isConsistent)
      print("CrashSafetyTests: 100 kills left \(leftovers) temporary file(s), all removed later")
    }
  }

  /// What a pending throttled write becomes when the process ends in each way.
  @Test(arguments: [
    Ending(name: "normal exit", signals: "exit", signal: nil, flushed: true),
    Ending(name: "SIGTERM, default action", signals: "default", signal: SIGTERM, flushed: false),
    Ending(name: "SIGINT, default action", signals: "default", signal: SIGINT, flushed: false),
    Ending(name: "SIGKILL", signals: "exit-on-signal", signal: SIGKILL, flushed: false),
    Ending(name: "SIGTERM, app exits", signals: "exit-on-signal", signal: SIGTERM, flushed: true),
    Ending(name: "SIGINT, app exits", signals: "exit-on-signal", signal: SIGINT, flushed: true),
  ])
  func pendingWriteAtTermination(_ ending: Ending) async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("value.json")
      let ready = directory.file("ready")
      let child = try Probe.start(["file-pending", url.path, ready.path, ending.signals])
      await waitUntil(child, "the pending write", orExit: ending.signal == nil) {
        FileManager.default.fileExists(atPath: ready.path)
      }
      if let signal = ending.signal {
        _ = kill(child.process.processIdentifier, signal)
      }
      let run = await Probe.finish(child)
      // NB: Checked first: a probe that timed out may not have been reaped yet.
      try #require(run.status != -1)
      if ending.flushed {
        #expect(!run.isSignalled && run.status == 0, "\(run.standardError)")
      } else {
        #expect(run.isSignalled && run.status == ending.signal)
      }
      // NB: Either way the file is whole: the pending value, or the one written before it.
      #expect(fileText(url) == (ending.flushed ? "2" : "1"))
      #expect(try temporaryFiles(in: directory) == [])
    }
  }

  struct Ending: Sendable, CustomTestStringConvertible {
    let name: String
    /// How the program handles SIGTERM and SIGINT: see the probe's `file-pending` command.
    let signals: String
    let signal: Int32?
    let flushed: Bool

    var testDescription: String { name }
  }
}

/// What the probe's `file-write-loop` writes: every element of `filler` equals `sequence`.
struct CrashPayload: Decodable {
  var sequence: Int
  var filler: [Int]

  var isConsistent: Bool {
    filler.count == 4_000 && filler.allSatisfy { $0 == sequence }
  }
}

/// The sequence numbers a writer acknowledged, one per whole line.
private func acknowledged(_ url: URL) -> [Int] {
  guard let data = try? Data(contentsOf: url) else { return [] }
  // NB: A kill during the append can leave the last line incomplete.
  return text(data)!.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    .compactMap { Int($0) }
}

/// The names of temporary files that atomic writes use, `.<name>.<UUID>.tmp`.
func temporaryFiles(in directory: TemporaryDirectory) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    .filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    .sorted()
}

/// Waits until `condition` holds while the probe runs; records an issue if it exits first
/// (unless `orExit`) or the condition does not hold within 30 seconds.
func waitUntil(
  _ child: Probe.Started,
  _ description: String,
  orExit: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async {
  let deadline = ContinuousClock.now + .seconds(30)
  while !condition() {
    if child.process.end != nil {
      if !orExit {
        Issue.record("The probe exited before \(description)", sourceLocation: sourceLocation)
      }
      return
    }
    guard ContinuousClock.now < deadline else {
      Issue.record("Timed out waiting for \(description)", sourceLocation: sourceLocation)
      return
    }
    try? await Task.sleep(for: .milliseconds(1))
  }
}
