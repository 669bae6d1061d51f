import Foundation

/// How much memory the system has, and how much is available, from `/proc/meminfo`.
public struct MemoryUsage: SystemReading {
  /// All usable memory, in kibibytes.
  public var totalKiB: Int
  /// The memory available to start new programs, in kibibytes.
  public var availableKiB: Int

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - totalKiB: All usable memory, in kibibytes.
  ///   - availableKiB: The memory available to start new programs, in kibibytes.
  public init(totalKiB: Int, availableKiB: Int) {
    self.totalKiB = totalKiB
    self.availableKiB = availableKiB
  }

  /// `meminfo`.
  public static let fileName = "meminfo"

  /// Parses lines such as `MemTotal: 16318412 kB` and `MemAvailable: 9876543 kB`.
  public init?(parsing contents: String) {
    var fields: [Substring: Int] = [:]
    for line in contents.split(separator: "\n") {
      let words = line.split(whereSeparator: { $0 == ":" || $0.isWhitespace })
      if words.count >= 2, let value = Int(words[1]) { fields[words[0]] = value }
    }
    guard let total = fields["MemTotal"], let available = fields["MemAvailable"] else {
      return nil
    }
    self.init(totalKiB: total, availableKiB: available)
  }

  /// The available and total memory, such as `5.12 of 15.56 GiB available`.
  public var description: String {
    let gibibyte = 1024.0 * 1024
    return String(
      format: "%.2f of %.2f GiB available",
      Double(availableKiB) / gibibyte,
      Double(totalKiB) / gibibyte
    )
  }
}
