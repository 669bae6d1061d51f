import Foundation

/// The system load averaged over 1, 5 and 15 minutes, from `/proc/loadavg`.
public struct LoadAverage: SystemReading {
  /// The load averaged over the last minute.
  public var lastMinute: Double
  /// The load averaged over the last 5 minutes.
  public var last5Minutes: Double
  /// The load averaged over the last 15 minutes.
  public var last15Minutes: Double

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - lastMinute: The load averaged over the last minute.
  ///   - last5Minutes: The load averaged over the last 5 minutes.
  ///   - last15Minutes: The load averaged over the last 15 minutes.
  public init(lastMinute: Double, last5Minutes: Double, last15Minutes: Double) {
    self.lastMinute = lastMinute
    self.last5Minutes = last5Minutes
    self.last15Minutes = last15Minutes
  }

  /// `loadavg`.
  public static let fileName = "loadavg"

  /// Parses a line such as `0.52 0.48 0.41 2/611 12345`.
  public init?(parsing contents: String) {
    let fields = contents.split(whereSeparator: \.isWhitespace).prefix(3).compactMap {
      Double($0)
    }
    guard fields.count == 3 else { return nil }
    self.init(lastMinute: fields[0], last5Minutes: fields[1], last15Minutes: fields[2])
  }

  /// The three averages, such as `0.52 0.48 0.41`.
  public var description: String {
    [lastMinute, last5Minutes, last15Minutes]
      .map { String(format: "%.2f", $0) }
      .joined(separator: " ")
  }
}
