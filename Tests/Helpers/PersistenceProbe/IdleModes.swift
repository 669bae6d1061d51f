import Foundation
import SharingCore
import SharingPersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `defaults-idle <suite> <megabytes> <seconds>`: holds a shared value of `<megabytes>` of
/// data in a user defaults suite, idles for `<seconds>`, then prints the CPU seconds the
/// process used while idle. Measures what watching a store costs when nothing changes.
func defaultsIdle(suite: String, megabytes: Int, seconds: Int) {
  guard let store = UserDefaults(suiteName: suite) else { fail("No suite \(suite)") }
  @Shared(.appStorage("large", store: store)) var large = Data()
  @Shared(.appStorage("small", store: store)) var small = 0
  $large.withLock { $0 = Data(repeating: 7, count: megabytes * 1_000_000) }
  $small.withLock { $0 += 1 }
  flushPendingWritesAndWait()
  let before = cpuSeconds()
  sleep(UInt32(seconds))
  print(String(format: "%.3f CPU seconds in %d seconds idle", cpuSeconds() - before, seconds))
}

/// `defaults-large <suite> <megabytes> <changes>`: holds a shared value of `<megabytes>` of
/// data in a user defaults suite, then changes a small key of the suite `<changes>` times, a
/// tenth of a second apart, and prints how long each `withLock` took, the CPU seconds used,
/// and how long the final flush took. Measures what a change to a small key costs.
func defaultsLarge(suite: String, megabytes: Int, changes: Int) {
  guard let store = UserDefaults(suiteName: suite) else { fail("No suite \(suite)") }
  @Shared(.appStorage("large", store: store)) var large = Data()
  @Shared(.appStorage("small", store: store)) var small = 0
  $large.withLock { $0 = Data(repeating: 7, count: megabytes * 1_000_000) }
  flushPendingWritesAndWait()
  let before = cpuSeconds()
  var durations: [String] = []
  for _ in 0..<changes {
    let start = ContinuousClock.now
    $small.withLock { $0 += 1 }
    durations.append(String(format: "%.4f", seconds(ContinuousClock.now - start)))
    usleep(100_000)
  }
  let flushStart = ContinuousClock.now
  flushPendingWritesAndWait()
  let flush = seconds(ContinuousClock.now - flushStart)
  print("withLock seconds: \(durations.joined(separator: " "))")
  print(String(format: "%.3f CPU seconds, flush %.3f seconds", cpuSeconds() - before, flush))
}

private func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

private func cpuSeconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}
