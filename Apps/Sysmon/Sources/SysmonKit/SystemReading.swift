public import Foundation

/// A reading of the running system, parsed from a file in `/proc`.
public protocol SystemReading: Equatable, Sendable, CustomStringConvertible {
  /// The name of the file in `/proc`, such as `loadavg`.
  static var fileName: String { get }

  /// Parses the contents of the file.
  ///
  /// - Parameter contents: The text of the file.
  /// - Returns: `nil` if the text is not in the expected format.
  init?(parsing contents: String)
}

/// Why a reading could not be made.
public enum SystemReadingError: Error, Equatable, CustomStringConvertible {
  /// The file could not be read, for a reason such as `permission denied`.
  case unreadable(URL, reason: String)
  /// The file's contents are not in the expected format.
  case malformed(URL)

  /// A description of the error for the user.
  public var description: String {
    switch self {
    case .unreadable(let url, let reason):
      "Cannot read \(url.path): \(reason).\(Self.note(for: url))"
    case .malformed(let url):
      "\(url.path) is not in the expected format."
    }
  }

  private static func note(for url: URL) -> String {
    #if os(Linux)
      ""
    #else
      url.path.hasPrefix("/proc/") ? " System readings come from /proc, which only Linux has." : ""
    #endif
  }
}
