import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// `file-pingpong <path> <rounds>`: on an integer file, waits to see each odd value the other
/// process writes (1, 3, …, 2 × rounds − 1) and answers with the next even value, written
/// once, before `withLock` returns. Exits with status 2 if an odd value is not seen within 30
/// seconds.
///
/// One write per turn: a second one, such as a `save()` after the change, would be a write
/// made before seeing the other side's answer, and could land over it.
func filePingPong(path: String, rounds: Int) {
  @Shared(.fileStorage(URL(fileURLWithPath: path), throttle: .zero)) var value = 0
  for odd in stride(from: 1, to: 2 * rounds, by: 2) {
    // NB: Says, at the timeout, what this side holds and what the file holds, to tell a
    //     change this side missed from one the other side never wrote.
    wait(for: "\(odd), holding \(value), the file holding \(fileText(path))") { value == odd }
    $value.withLock { $0 = odd + 1 }
    if let error = $value.saveError { fail("Writing \(odd + 1) failed: \(error)") }
  }
}

/// `defaults-pingpong <suite> <key> <rounds>`: on an integer in a user defaults suite, waits
/// to see each odd value the other process writes and answers with the next even value, made
/// durable with `save()`. Exits with status 2 if an odd value is not seen within 30 seconds.
func defaultsPingPong(suite: String, key: String, rounds: Int) async {
  guard let store = UserDefaults(suiteName: suite) else { fail("No suite \(suite)") }
  @Shared(.appStorage(key, store: store)) var value = 0
  await pingPong(rounds: rounds, value: $value)
}

private func pingPong(rounds: Int, value: Shared<Int>) async {
  for odd in stride(from: 1, to: 2 * rounds, by: 2) {
    wait(for: "\(odd), holding \(value.wrappedValue)") { value.wrappedValue == odd }
    value.withLock { $0 = odd + 1 }
    await save(value)
  }
}

/// `file-burst <path> <first> <count> <done> <stop> <report>`: writes `first`, `first + 1`,
/// … (`count` values) to an integer file, each with `save()`, and creates `<done>`. Then,
/// until `<stop>` exists, keeps `<report>` holding the value it sees.
func fileBurst(
  path: String,
  first: Int,
  count: Int,
  done: String,
  stop: String,
  report: String
)
  async
{
  @Shared(.fileStorage(URL(fileURLWithPath: path))) var value = 0
  for offset in 0..<count {
    $value.withLock { $0 = first + offset }
    await save($value)
  }
  touch(done)
  keepReporting(to: report, until: stop) { "\(value)" }
}

/// `defaults-burst <suite> <first> <count> <other-first> <done> <stop> <report>`: writes
/// `first`, `first + 1`, … to the key "shared" and to a key of its own, "own-<first>", each
/// with `save()`, and creates `<done>`. Then, until `<stop>` exists, keeps `<report>` holding
/// "<shared> <own-<first>> <own-<other-first>>" as it sees them.
func defaultsBurst(
  suite: String,
  first: Int,
  count: Int,
  otherFirst: Int,
  done: String,
  stop: String,
  report: String
) async {
  guard let store = UserDefaults(suiteName: suite) else { fail("No suite \(suite)") }
  @Shared(.appStorage("shared", store: store)) var shared = 0
  @Shared(.appStorage("own-\(first)", store: store)) var own = 0
  @Shared(.appStorage("own-\(otherFirst)", store: store)) var other = 0
  for offset in 0..<count {
    $shared.withLock { $0 = first + offset }
    $own.withLock { $0 = first + offset }
    await save($shared)
    await save($own)
  }
  touch(done)
  keepReporting(to: report, until: stop) { "\(shared) \(own) \(other)" }
}

/// Saves the value, making a failed save again up to four times: a process saving in a tight
/// loop can keep the store's lock from the other process past its wait (5 seconds) on a
/// loaded machine, as `flock` does not hand a released lock to the process that waited
/// longest. That save fails visibly, and the change stays in memory; what the tests check is
/// that no change is lost.
private func save(_ value: Shared<Int>) async {
  var attempt = 1
  while true {
    do {
      return try await value.save()
    } catch {
      guard attempt < 5 else { fail("save() failed \(attempt) times: \(error)") }
      attempt += 1
    }
  }
}

/// Replaces the file at `path` with `current()` whenever it changes, until `stop` exists.
private func keepReporting(to path: String, until stop: String, _ current: () -> String) {
  var reported: String?
  while !exists(stop) {
    let value = current()
    if value != reported {
      do {
        try Data(value.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
      } catch {
        fail("Could not write \(path): \(error)")
      }
      reported = value
    }
    usleep(2_000)
  }
}

/// The file's text, or why it could not be read.
private func fileText(_ path: String) -> String {
  do {
    return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  } catch {
    return "nothing readable (\(error))"
  }
}

/// `defaults-count <suite> <key> <count> <go>`: once `<go>` exists, sets the integer `<key>` of
/// a user defaults suite to 1, 2, … `<count>`, each with `save()`, then exits.
func defaultsCount(suite: String, key: String, count: Int, go: String) async {
  guard let store = UserDefaults(suiteName: suite) else { fail("No suite \(suite)") }
  @Shared(.appStorage(key, store: store)) var value = 0
  wait(for: "the go file") { exists(go) }
  for next in 1...count {
    $value.withLock { $0 = next }
    await save($value)
  }
}

/// `file-threads <path> <threads> <milliseconds> <done> <others-done>`: increments an
/// integer file from `threads` threads for `milliseconds`, flushes, creates `<done>`, waits
/// for `<others-done>`, then waits until the value it holds is the one the file holds. Exits
/// with status 3, saying both, if they still disagree 10 seconds after the other is done.
func fileThreads(
  path: String,
  threads: Int,
  milliseconds: Int,
  done: String,
  othersDone: String
) async {
  @Shared(.fileStorage(URL(fileURLWithPath: path))) var value = 0
  let end = Date().addingTimeInterval(Double(milliseconds) / 1_000)
  let shared = $value
  DispatchQueue.concurrentPerform(iterations: threads) { _ in
    while Date() < end { shared.withLock { $0 += 1 } }
  }
  await flushPendingWrites()
  touch(done)
  wait(for: "the other process to be done") { exists(othersDone) }
  let deadline = Date().addingTimeInterval(10)
  while Int(fileText(path)) != value {
    guard Date() < deadline else {
      fail("DISAGREE memory=\(value) file=\(fileText(path))", status: 3)
    }
    usleep(5_000)
  }
}
