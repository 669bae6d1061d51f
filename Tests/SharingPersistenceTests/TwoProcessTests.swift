import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// Two writers on one file, or on one user defaults suite.
///
/// Definitions used below:
/// - A write is *accepted* when its bytes become the file's content (the rename that ends
///   an atomic write happened), or when the value is set in the defaults suite and
///   synchronised to its property list.
/// - Two sides *converge* when, after both stopped writing, each side's value equals what the
///   file or property list holds, and keeps equalling it.
///
/// Writes from two processes are not serialised: concurrent read-modify-write cycles lose
/// updates, and the last accepted write wins.
@Suite struct TwoProcessTests {
  // MARK: One process, deterministic

  /// Another writer's change landing while this process encodes its own write: this write
  /// lands last, so this process must end up holding it too, not the other writer's value.
  @Test func externalWriteDuringOwnWriteConverges() {
    @Dependency(\.defaultFileStorage) var storage
    let url = URL(fileURLWithPath: "/virtual/count.txt")
    let interrupt = Locked(false)
    let key = FileStorageKey<Int>.fileStorage(
      url,
      decode: { Int(String(decoding: $0, as: UTF8.self)) ?? -1 },
      encode: { value in
        if interrupt.withLock({ $0 }) {
          interrupt.withLock { $0 = false }
          storage.simulateExternalWrite(Data("99".utf8), to: url)
        }
        return Data("\(value)".utf8)
      }
    )
    @Shared(key) var count = 0
    interrupt.withLock { $0 = true }
    $count.withLock { $0 = 1 }
    let file = storage.contents(of: url).map { String(decoding: $0, as: UTF8.self) }
    #expect(file == "\(count)")
  }

  // MARK: Two processes, file storage

  /// Taking turns: each side writes only after seeing the other's last write, so every write
  /// is accepted, and each must be seen by the other side.
  ///
  /// Each turn is one write, made before `withLock` returns. A second write of the same turn
  /// (a `save()` after the change) would be made before seeing the other side's answer: it
  /// could land over the answer, and by the rule above (the last accepted write wins) take
  /// it back.
  ///
  /// The other side exits as soon as it wrote its last answer, maybe before this side played
  /// it back: that answer is awaited once it has exited.
  ///
  /// This side takes its turns on a thread of its own, not in the test's task: in a full run
  /// of the suite, other tests can keep every thread of the task pool busy for longer than
  /// the other side waits for a turn (33 seconds were seen under ThreadSanitizer).
  @Test func fileTurnsAreEachSeenByTheOtherProcess() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("turn.json")
      @Shared(.fileStorage(url, throttle: .zero)) var turn = 0
      let child = try Probe.start(["file-pingpong", url.path, "25"])
      let failure = await onThreadOfItsOwn { [$turn, process = child.process] in
        takeOddTurns(on: $turn, until: 49, with: process)
      }
      if let failure { Issue.record(Comment(rawValue: failure)) }
      let run = await Probe.finish(child)
      #expect(run.status == 0, "\(run.standardError)")
      await expectEventually("the other process's last answer") { turn == 50 }
      #expect(fileText(url) == "50")
    }
  }

  /// Both sides write 100 values at once; the last accepted write wins, and both sides
  /// converge on it.
  @Test func concurrentFileWritersConverge() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("value.json")
      let (done, stop, report) = (
        directory.file("done"), directory.file("stop"), directory.file("report")
      )
      @Shared(.fileStorage(url)) var value = 0
      let child = try Probe.start([
        "file-burst", url.path, "2000", "100", done.path, stop.path, report.path,
      ])
      for next in 1000..<1100 {
        $value.withLock { $0 = next }
        try await $value.save()
      }
      await waitUntil(child, "the other process's writes") { exists(done) }
      await expectEventually(timeout: .seconds(30), "convergence") {
        guard let truth = fileText(url).flatMap({ Int($0) }) else { return false }
        return value == truth && fileText(report) == "\(truth)"
      }
      #expect([1099, 2099].contains(value))
      _ = FileManager.default.createFile(atPath: stop.path, contents: nil)
      let run = await Probe.finish(child)
      #expect(run.status == 0, "\(run.standardError)")
    }
  }

  /// Two processes, each changing one file from 16 threads at once, then flushing: each
  /// ends holding what the file holds, rather than a value it held long before, which its
  /// next write would put back over every change made since.
  @Test(arguments: 1...2)
  func processesChangingAFileFromManyThreadsConvergeAfterAFlush(run: Int) async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("count.json")
      let (aDone, bDone) = (directory.file("a-done"), directory.file("b-done"))
      let a = try Probe.start(["file-threads", url.path, "16", "1500", aDone.path, bDone.path])
      let b = try Probe.start(["file-threads", url.path, "16", "1500", bDone.path, aDone.path])
      for (name, process) in [("a", a), ("b", b)] {
        let finished = await Probe.finish(process)
        #expect(finished.status == 0, "\(name): \(finished.standardError)")
      }
    }
  }

  // MARK: Two processes, user defaults

  /// Taking turns on one defaults key: each side writes its turn with the suite's file locked
  /// against the other, merged into what the file holds, so no turn is lost.
  @Test func defaultsTurnsAreEachSeenByTheOtherProcess() async throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(UserDefaults(suiteName: suite))
    @Shared(.appStorage("turn", store: store)) var turn = 0
    let child = try Probe.start(["defaults-pingpong", suite, "turn", "10"])
    for odd in stride(from: 1, to: 20, by: 2) {
      $turn.withLock { $0 = odd }
      try await $turn.save()
      let deadline = ContinuousClock.now + .seconds(30) * ThreadSanitizer.timeScale
      while turn != odd + 1 && ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      guard turn == odd + 1 else {
        kill(child.process.processIdentifier, SIGKILL)
        let run = await Probe.finish(child)
        Issue.record(
          """
          Turn \(odd) or its answer was lost; this side holds \(turn), the file \
          \(propertyList(of: suite)?["turn"] ?? "nothing"); the other process said: \
          \(run.standardError)
          """
        )
        return
      }
    }
    let run = await Probe.finish(child)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(propertyList(of: suite)?["turn"] as? Int == 20)
  }

  /// Both sides write one key they share and one key of their own, 50 times each, then
  /// converge: each side holds, for every key, what the property list holds, and no change
  /// to a key only one side writes is lost.
  @Test func concurrentDefaultsWritersConverge() async throws {
    try await withTemporaryDirectory { directory in
      let suite = TemporaryUserDefaults.makeSuiteName()
      let store = try #require(UserDefaults(suiteName: suite))
      let (done, stop, report) = (
        directory.file("done"), directory.file("stop"), directory.file("report")
      )
      @Shared(.appStorage("shared", store: store)) var shared = 0
      @Shared(.appStorage("own-1000", store: store)) var own = 0
      @Shared(.appStorage("own-2000", store: store)) var other = 0
      let child = try Probe.start([
        "defaults-burst", suite, "2000", "50", "1000", done.path, stop.path, report.path,
      ])
      for next in 1000..<1050 {
        $shared.withLock { $0 = next }
        $own.withLock { $0 = next }
        try await $shared.save()
        try await $own.save()
      }
      await waitUntil(child, "the other process's writes") { exists(done) }
      let state = {
        let stored = propertyList(of: suite).map { truth in
          ["shared", "own-1000", "own-2000"].map { truth[$0] as? Int ?? 0 }
        }
        return "convergence: this side holds \([shared, own, other]), the property list "
          + "\(stored.map { "\($0)" } ?? "nothing"), the other side "
          + "\(fileText(report) ?? "nothing")"
      }
      await expectEventually(timeout: .seconds(30), state()) {
        guard let truth = propertyList(of: suite) else { return false }
        let stored = ["shared", "own-1000", "own-2000"].map { truth[$0] as? Int ?? 0 }
        return [shared, own, other] == stored
          && fileText(report) == "\(stored[0]) \(stored[2]) \(stored[1])"
      }
      #expect([1049, 2049].contains(shared))
      #expect(own == 1049)
      #expect(other == 2049)
      _ = FileManager.default.createFile(atPath: stop.path, contents: nil)
      let run = await Probe.finish(child)
      #expect(run.status == 0, "\(run.standardError)")
    }
  }
}

extension TwoProcessTests {
  /// Two processes each set a key of their own in one suite 100 times, saving each change:
  /// neither loses a change of the other's key. Each writes the suite's property list with
  /// its lock held against every process, merging its own changes into what the file holds
  /// then. Repeated, since a loss depends on how the writes interleave.
  @Test func processesWritingDifferentKeysOfOneStoreLoseNothing() async throws {
    try await withTemporaryDirectory { directory in
      for round in 1...5 {
        let suite = TemporaryUserDefaults.makeSuiteName()
        let go = directory.file("go-\(round)")
        let children = try ["a", "b"].map { key in
          try Probe.start(["defaults-count", suite, key, "100", go.path])
        }
        _ = FileManager.default.createFile(atPath: go.path, contents: nil)
        for child in children {
          let run = await Probe.finish(child)
          #expect(run.status == 0, "\(run.standardError)")
        }
        let stored = propertyList(of: suite)
        #expect(
          stored?["a"] as? Int == 100 && stored?["b"] as? Int == 100,
          "round \(round): the property list holds \(stored.map { "\($0)" } ?? "nothing")"
        )
      }
    }
  }
}

private func exists(_ url: URL) -> Bool {
  FileManager.default.fileExists(atPath: url.path)
}

/// The property list Foundation keeps for a suite named by an absolute path.
private func propertyList(of suite: String) -> [String: Any]? {
  guard let data = try? Data(contentsOf: URL(fileURLWithPath: suite + ".plist")) else { return nil }
  return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
}

/// Writes each odd value up to `last` and waits, polling, for the other process's answer (the
/// next even value), the last one excepted; returns why it stopped early, if it did.
private func takeOddTurns(on turn: Shared<Int>, until last: Int, with other: Process) -> String? {
  for odd in stride(from: 1, through: last, by: 2) {
    turn.withLock { $0 = odd }
    if let error = turn.saveError { return "Writing \(odd) failed: \(error)" }
    guard odd != last else { return nil }
    let deadline = ContinuousClock.now + .seconds(60)
    while turn.wrappedValue != odd + 1 {
      guard other.end == nil else { return "The probe exited before its answer to \(odd)" }
      guard ContinuousClock.now < deadline else {
        return "Timed out waiting for the answer to \(odd), holding \(turn.wrappedValue)"
      }
      usleep(1_000)
    }
  }
  return nil
}
