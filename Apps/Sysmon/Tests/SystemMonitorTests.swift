import AppTestSupport
import Foundation
import SysmonKit
import Testing

/// The three readers together, on fake files in a temporary directory.
@Suite struct SystemMonitorTests {
  @Test func lineShowsEveryReadingOnceLoaded() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      let monitor = SystemMonitor(directory: directory.url, interval: .milliseconds(10))

      await monitor.waitUntilLoaded()

      #expect(!monitor.isLoading)
      #expect(monitor.errors.isEmpty)
      #expect(
        monitor.line
          == "load 1.00 2.00 3.00 │ up 1d 01:01:01 │ memory 1.00 of 2.00 GiB available"
      )
    }
  }

  @Test func readingThatFailsIsShownUnavailable() async throws {
    try await withTemporaryDirectory { directory in
      try writeFakeProc(in: directory)
      try FileManager.default.removeItem(at: directory.file("meminfo"))
      let monitor = SystemMonitor(directory: directory.url, interval: .milliseconds(10))

      await monitor.waitUntilLoaded()

      #expect(monitor.line.hasSuffix("│ memory unavailable"))
      #expect(
        monitor.errors.map { "\($0)" } == [
          "Cannot read \(directory.file("meminfo").path): no such file or directory."
        ]
      )
    }
  }
}

/// Writes `loadavg`, `uptime` and `meminfo` as Linux shows them in `/proc`.
func writeFakeProc(in directory: TemporaryDirectory) throws {
  try Data("1.00 2.00 3.00 1/100 4242\n".utf8).write(to: directory.file("loadavg"))
  try Data("90061.25 1000.00\n".utf8).write(to: directory.file("uptime"))
  try Data("MemTotal: 2097152 kB\nMemAvailable: 1048576 kB\n".utf8)
    .write(to: directory.file("meminfo"))
}
