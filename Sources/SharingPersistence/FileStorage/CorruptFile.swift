import Foundation

/// Where undecodable files (and user defaults values) are kept before being overwritten.
///
/// The bytes of `todos.json` go to a sibling named `todos.json.corrupt-<UTC timestamp>`,
/// for example `todos.json.corrupt-20250102T030405Z`, with `-2`, `-3`… appended if that name
/// is taken. Nothing ever deletes these files.
enum CorruptFile {
  /// The name the bytes of `url` get when kept at `date`.
  static func preservationURL(for url: URL, at date: Date, attempt: Int = 1) -> URL {
    url.deletingLastPathComponent().appendingPathComponent(
      preservationName(for: url.lastPathComponent, at: date, attempt: attempt)
    )
  }

  /// The name a value called `name` gets when kept at `date`: also used for user defaults
  /// keys.
  static func preservationName(for name: String, at date: Date, attempt: Int = 1) -> String {
    let suffix = attempt > 1 ? "-\(attempt)" : ""
    return "\(name).corrupt-\(timestamp(date))\(suffix)"
  }

  /// Writes `data` next to `url` under a name no other file has; returns that file.
  @discardableResult
  static func preserve(_ data: Data, of url: URL, in backend: any FileSystemBackend) throws -> URL {
    let date = Date()
    var attempt = 1
    while (try? backend.contents(of: preservationURL(for: url, at: date, attempt: attempt)))
      != nil
    {
      attempt += 1
    }
    // With the file's permissions: the bytes of a private file stay private.
    let preserved = preservationURL(for: url, at: date, attempt: attempt)
    try backend.write(data, to: preserved, permissionsOf: url)
    return preserved
  }

  private static func timestamp(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return formatter.string(from: date)
  }
}
