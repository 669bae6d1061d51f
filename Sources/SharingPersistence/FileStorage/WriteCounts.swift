import Foundation
import SharingDependencies

/// How many times a storage encoded values for each file and wrote it: for tests and
/// benchmarks, which ask a storage for them with ``FileStorage/countingWrites()``.
final class WriteCounts: Sendable {
  private let counts = Locked<[URL: (writes: Int, encodes: Int)]>([:])

  /// Counts a value encoded for `url`, and written to it if `wrote`.
  func record(_ url: URL, wrote: Bool) {
    counts.withLock { counts in
      counts[url, default: (0, 0)].encodes += 1
      if wrote { counts[url, default: (0, 0)].writes += 1 }
    }
  }

  func writes(to url: URL) -> Int { counts.withLock { $0[url]?.writes ?? 0 } }
  func encodes(for url: URL) -> Int { counts.withLock { $0[url]?.encodes ?? 0 } }
}
