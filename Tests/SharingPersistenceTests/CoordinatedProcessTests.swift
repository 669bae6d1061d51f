import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `.fileStorage(url, .coordinated)` changed by several processes at once, each started from
/// the `PersistenceProbe`: no change is lost.
@Suite struct CoordinatedProcessTests {
  /// Three processes of four threads, 25 increments each: 300, in the file and in the memory
  /// of every process.
  @Test func incrementsFromSeveralProcessesAndThreadsAreExact() async throws {
    try await withTemporaryDirectory { directory in
      let (processes, threads, increments) = (3, 4, 25)
      let total = processes * threads * increments
      let url = directory.file("count.json")
      let probes = try (0..<processes).map { _ in
        try Probe.start(
          ["coordinated-increment", url.path, "\(threads)", "\(increments)", "\(total)"]
        )
      }
      for probe in probes {
        let run = await Probe.finish(probe)
        // NB: Status 0 also says that the probe's memory reached the total.
        #expect(run.status == 0, "\(run.standardError)")
      }
      #expect(fileText(url) == "\(total)")
    }
  }

  /// A process killed with SIGKILL mid-run, perhaps holding the lock: the kernel releases
  /// it, the other process finishes with every one of its changes kept, and the file always
  /// decodes.
  @Test func aProcessKilledMidRunLosesNoOtherProcessesChange() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("tally.json")
      let (threads, increments) = (2, 50)
      let victimStarted = directory.file("victim-started")
      let victim = try Probe.start(
        ["coordinated-tally", url.path, "victim", "2", "0", victimStarted.path]
      )
      let survivor = try Probe.start(
        [
          "coordinated-tally", url.path, "survivor", "\(threads)", "\(increments)",
          directory.file("survivor-started").path,
        ]
      )
      await expectEventually("the victim's first change") {
        FileManager.default.fileExists(atPath: victimStarted.path)
      }
      kill(victim.process.processIdentifier, SIGKILL)
      _ = await Probe.finish(victim)
      let run = await Probe.finish(survivor)
      #expect(run.status == 0, "\(run.standardError)")

      let tally = try JSONDecoder().decode(ProbeTally.self, from: Data(contentsOf: url))
      #expect(tally.counts["survivor"] == threads * increments)
      #expect((tally.counts["victim"] ?? 0) > 0)
      #expect(tally.total == tally.counts.values.reduce(0, +))
    }
  }

  /// Another process's coordinated changes reach this one's memory, each once.
  @Test func anotherProcessesChangesArePlayedBack() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("count.json")
      try await withDependencies {
        $0.defaultFileStorage = .fileSystem
      } operation: {
        @Shared(.fileStorage(url, .coordinated)) var count = 0
        $count.withLock { $0 += 1 }
        let probe = try Probe.start(["coordinated-increment", url.path, "1", "10", "11"])
        let run = await Probe.finish(probe)
        #expect(run.status == 0, "\(run.standardError)")
        await expectEventually("the other process's changes") { count == 11 }
        $count.withLock { $0 += 1 }
        #expect(fileText(url) == "12")
      }
    }
  }
}

/// The value of `PersistenceProbe coordinated-tally`.
private struct ProbeTally: Codable {
  var total = 0
  var counts: [String: Int] = [:]
}
