import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("SharingPersistenceTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func file(_ path: String) -> URL {
    url.appendingPathComponent(path)
  }

  func remove() {
    // NB: A directory made read-only by a test must be writable again to be removed.
    if let enumerator = FileManager.default.enumerator(atPath: url.path) {
      for case let path as String in enumerator {
        chmod(url.appendingPathComponent(path).path, 0o755)
      }
    }
    chmod(url.path, 0o755)
    try? FileManager.default.removeItem(at: url)
  }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
func withTemporaryDirectory<R>(_ body: (TemporaryDirectory) async throws -> R) async throws -> R {
  let directory = try TemporaryDirectory()
  defer { directory.remove() }
  return try await body(directory)
}

/// Waits until `condition` holds, polling, and records an issue if it does not within
/// `timeout` (a generous bound for real-time tests: the condition is usually met in
/// milliseconds), scaled under ThreadSanitizer.
func expectEventually(
  timeout: Duration = .seconds(10),
  _ description: @autoclosure () -> String = "condition",
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async {
  let deadline = ContinuousClock.now + timeout * ThreadSanitizer.timeScale
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("Timed out waiting for \(description())", sourceLocation: sourceLocation)
      return
    }
    try? await Task.sleep(for: .milliseconds(5))
  }
}

/// Bytes from a string, for file contents.
func bytes(_ string: String) -> Data {
  Data(string.utf8)
}

/// A string from bytes, for file contents.
func text(_ data: Data?) -> String? {
  data.map { String(decoding: $0, as: UTF8.self) }
}

/// The contents of a file on disk as a string, or `nil` if it cannot be read.
func fileText(_ url: URL) -> String? {
  text(try? Data(contentsOf: url))
}

/// User defaults that count their synchronizations, by the thread that made each.
final class CountingDefaults: UserDefaults {
  let synchronizations = Locked<[UInt]>([])

  override func synchronize() -> Bool {
    synchronizations.withLock { $0.append(currentThreadID()) }
    return super.synchronize()
  }
}
