public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// The system load averaged over 1, 5 and 15 minutes, read every `interval`.
  ///
  /// ```swift
  /// @SharedReader(.loadAverage()) var loadAverage: LoadAverage?
  /// ```
  ///
  /// - Parameters:
  ///   - directory: Where `loadavg` is; `/proc` (``Foundation/URL/proc``) by default.
  ///   - interval: How often it is read again.
  /// - Returns: A key for the reading.
  public static func loadAverage(
    in directory: URL = .proc,
    every interval: Duration = .seconds(1)
  ) -> Self where Self == SystemReadingKey<LoadAverage> {
    .systemReading(in: directory, every: interval)
  }

  /// How long the system has been running, read every `interval`.
  ///
  /// - Parameters:
  ///   - directory: Where `uptime` is; `/proc` (``Foundation/URL/proc``) by default.
  ///   - interval: How often it is read again.
  /// - Returns: A key for the reading.
  public static func uptime(
    in directory: URL = .proc,
    every interval: Duration = .seconds(1)
  ) -> Self where Self == SystemReadingKey<Uptime> {
    .systemReading(in: directory, every: interval)
  }

  /// The system's total and available memory, read every `interval`.
  ///
  /// - Parameters:
  ///   - directory: Where `meminfo` is; `/proc` (``Foundation/URL/proc``) by default.
  ///   - interval: How often it is read again.
  /// - Returns: A key for the reading.
  public static func memoryUsage(
    in directory: URL = .proc,
    every interval: Duration = .seconds(1)
  ) -> Self where Self == SystemReadingKey<MemoryUsage> {
    .systemReading(in: directory, every: interval)
  }

  private static func systemReading<Reading>(
    in directory: URL,
    every interval: Duration
  ) -> Self where Self == SystemReadingKey<Reading> {
    SystemReadingKey(
      url: directory.appendingPathComponent(Reading.fileName),
      interval: interval,
      queue: DispatchQueue(label: "sysmon.\(Reading.fileName)")
    )
  }
}
