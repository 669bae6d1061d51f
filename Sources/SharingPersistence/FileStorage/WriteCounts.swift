import Foundation
import SharingDependencies

/// How many times a storage encoded values for each file and wrote it: for tests and
/// benchmarks, which ask a storage for them with ``FileStorage/countingWrites()``.
final class WriteCounts: Sendable {
  private let counts = Locked<[URL: (writes: Int, encodes: Int)]>([:])

  /// Counts a write of `url`.
  func recordWrite(to url: URL) {
    counts.withLock { $0[url, default: (0, 0)].writes += 1 }
  }

  /// Counts a value encoded to write `url`.
  func recordEncode(for url: URL) {
    counts.withLock { $0[url, default: (0, 0)].encodes += 1 }
  }

  func writes(to url: URL) -> Int { counts.withLock { $0[url]?.writes ?? 0 } }
  func encodes(for url: URL) -> Int { counts.withLock { $0[url]?.encodes ?? 0 } }
}
