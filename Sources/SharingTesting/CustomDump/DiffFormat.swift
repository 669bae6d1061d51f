/// The markers a ``diff(_:_:format:)`` puts before each line.
///
/// ```swift
/// diff(1, 2, format: .plain)
/// // - 1
/// // + 2
/// ```
public struct DiffFormat: Hashable, Sendable {
  /// The marker of a line only the first (expected) value has.
  public var first: String
  /// The marker of a line only the second (actual) value has.
  public var second: String
  /// The marker of a line both values share.
  public var both: String

  /// Creates a format from its three markers.
  ///
  /// - Parameters:
  ///   - first: The marker of a line only the first (expected) value has.
  ///   - second: The marker of a line only the second (actual) value has.
  ///   - both: The marker of a line both values share.
  public init(first: String, second: String, both: String) {
    self.first = first
    self.second = second
    self.both = both
  }

  /// `−` (U+2212 MINUS SIGN) and `+`, which have the same width in most fonts.
  public static let `default` = DiffFormat(first: "\u{2212}", second: "+", both: " ")

  /// ASCII `-` and `+`, for logs and terminals that only show ASCII well.
  public static let plain = DiffFormat(first: "-", second: "+", both: " ")

  /// A line with its marker and a separating space; a blank line has no trailing spaces.
  func format(_ line: DiffLine) -> String {
    let (marker, text) =
      switch line {
      case .both(let text): (both, text)
      case .first(let text): (first, text)
      case .second(let text): (second, text)
      }
    guard !text.isEmpty else { return marker == " " ? "" : marker }
    return "\(marker) \(text)"
  }
}
