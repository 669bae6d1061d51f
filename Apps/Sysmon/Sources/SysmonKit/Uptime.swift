/// How long the system has been running, from `/proc/uptime`.
public struct Uptime: SystemReading {
  /// The time since the system started, in whole seconds.
  public var seconds: Int

  /// Creates a reading.
  ///
  /// - Parameter seconds: The time since the system started, in whole seconds.
  public init(seconds: Int) {
    self.seconds = seconds
  }

  /// `uptime`.
  public static let fileName = "uptime"

  /// Parses a line such as `350735.47 234388.90`.
  public init?(parsing contents: String) {
    guard let field = contents.split(whereSeparator: \.isWhitespace).first,
      let seconds = Double(field), seconds >= 0, seconds < Double(Int.max)
    else { return nil }
    self.init(seconds: Int(seconds))
  }

  /// The time in days, hours, minutes and seconds, such as `4d 01:25:35`.
  public var description: String {
    let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let clock = [rest / 3600, rest % 3600 / 60, rest % 60]
      .map { $0 < 10 ? "0\($0)" : "\($0)" }
      .joined(separator: ":")
    return days > 0 ? "\(days)d \(clock)" : clock
  }
}
