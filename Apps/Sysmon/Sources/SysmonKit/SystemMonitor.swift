import CommandLineSupport
public import Foundation
public import SharingCore

/// Readers of the load average, the uptime and the memory usage, and a line showing them.
///
/// ```swift
/// let monitor = SystemMonitor()
/// await monitor.waitUntilLoaded()
/// print(monitor.line)  // load 0.52 0.48 0.41 │ up 4d 01:25:35 │ memory 5.12 of 15.56 GiB available
/// ```
public struct SystemMonitor: Sendable {
  /// The system load, `nil` until read.
  @SharedReader public var loadAverage: LoadAverage?
  /// The time since the system started, `nil` until read.
  @SharedReader public var uptime: Uptime?
  /// The memory usage, `nil` until read.
  @SharedReader public var memoryUsage: MemoryUsage?

  /// Starts reading the system.
  ///
  /// - Parameters:
  ///   - directory: Where the files `loadavg`, `uptime` and `meminfo` are.
  ///   - interval: How often they are read again.
  public init(directory: URL = .proc, interval: Duration = .seconds(1)) {
    _loadAverage = SharedReader(.loadAverage(in: directory, every: interval))
    _uptime = SharedReader(.uptime(in: directory, every: interval))
    _memoryUsage = SharedReader(.memoryUsage(in: directory, every: interval))
  }

  /// Checks that the readings can come from a directory: that it is one, and can be read.
  ///
  /// - Parameter directory: Where the files `loadavg`, `uptime` and `meminfo` are to be.
  /// - Throws: ``SystemReadingError/unreadable(_:reason:)`` naming the directory, such as
  ///   `Cannot read /tmp/fake: no such file or directory.`
  public static func checkSource(_ directory: URL) throws(SystemReadingError) {
    do {
      _ = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .unreadable(directory, reason: FileProblem.reason(for: error, at: directory))
    }
  }

  /// Whether a first reading is still being made.
  public var isLoading: Bool {
    $loadAverage.isLoading || $uptime.isLoading || $memoryUsage.isLoading
  }

  /// Why readings failed, if the latest ones did.
  public var errors: [any Error] {
    [$loadAverage.loadError, $uptime.loadError, $memoryUsage.loadError].compactMap { $0 }
  }

  /// The readings on one line: `…` for one still loading, `unavailable` for one that failed.
  public var line: String {
    [
      field("load", $loadAverage),
      field("up", $uptime),
      field("memory", $memoryUsage),
    ]
    .joined(separator: " │ ")
  }

  /// Waits until the first readings are made, or failed.
  ///
  /// - Parameter timeout: How long to wait at most.
  public func waitUntilLoaded(timeout: Duration = .seconds(5)) async {
    let deadline = ContinuousClock.now + timeout
    while isLoading, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
  }

  private func field<Reading: SystemReading>(
    _ name: String,
    _ reader: SharedReader<Reading?>
  ) -> String {
    if reader.loadError != nil { return "\(name) unavailable" }
    guard let reading = reader.wrappedValue else { return "\(name) …" }
    return "\(name) \(reading)"
  }
}
