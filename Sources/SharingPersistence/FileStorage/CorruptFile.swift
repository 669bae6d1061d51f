import Foundation

/// Where undecodable files (and user defaults values) are kept before being overwritten.
///
/// The bytes of `todos.json` go to a sibling named `todos.json.corrupt-<UTC timestamp>`,
/// for example `todos.json.corrupt-20250102T030405Z`, with `-2`, `-3`… appended if that name
/// is taken. Nothing ever deletes these files.
enum CorruptFile {
  /// The first name, from now, that a value called `name` is kept under: the first that
  /// `claim` takes, saying whether it could (no value had it). Also used for user defaults
  /// keys.
  static func preservationName(
    for name: String,
    claim: (String) throws -> Bool
  ) rethrows -> String {
    let date = Date()
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let base = "\(name).corrupt-\(formatter.string(from: date))"
    // The first name not taken: there is one, as the names never end.
    return try (1...).lazy.map { $0 > 1 ? "\(base)-\($0)" : base }.first { try claim($0) }!
  }

  /// Writes `data` next to `url` under a name nothing else has, with the file's permissions
  /// (the bytes of a private file stay private); returns that file.
  ///
  /// Each name is taken by creating the file there, over nothing, not even a symbolic link:
  /// another process keeping bytes at the same moment takes the next name.
  @discardableResult
  static func preserve(_ data: Data, of url: URL, in backend: any FileSystemBackend) throws -> URL {
    let directory = url.deletingLastPathComponent()
    let name = try preservationName(for: url.lastPathComponent) { name in
      try backend.create(data, at: directory.appendingPathComponent(name), permissionsOf: url)
    }
    return directory.appendingPathComponent(name)
  }
}
