public import Foundation

/// A fresh directory under the system's temporary directory, for a test that needs real
/// files.
///
/// ```swift
/// try await withTemporaryDirectory { directory in
///   let file = directory.file("todos.json")
///   …
/// }
/// ```
public struct TemporaryDirectory: Sendable {
  /// The directory.
  public let url: URL

  /// Creates an empty directory with a unique name.
  public init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("SharingApps-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// A file in the directory, which need not exist.
  ///
  /// - Parameter path: The path of the file, relative to the directory.
  /// - Returns: The file's URL.
  public func file(_ path: String) -> URL {
    url.appendingPathComponent(path)
  }

  /// Replaces a file's contents at once, as a program that saves atomically does: readers
  /// see the old contents or the new, never a part.
  ///
  /// - Parameters:
  ///   - text: The new contents.
  ///   - path: The path of the file, relative to the directory.
  public func replace(_ path: String, with text: String) throws {
    let target = file(path)
    let draft = file("\(path).\(UUID().uuidString).new")
    // NB: Not 'Data.write(options: .atomic)': on Linux, Foundation leaves a directory
    //     behind in /tmp for each atomic write.
    try Data(text.utf8).write(to: draft)
    guard rename(draft.path, target.path) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  /// Removes the directory and everything in it.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
///
/// - Parameter body: The work that uses the directory.
/// - Returns: The result of `body`.
public func withTemporaryDirectory<R>(
  _ body: (TemporaryDirectory) async throws -> R
) async throws -> R {
  let directory = try TemporaryDirectory()
  defer { directory.remove() }
  return try await body(directory)
}
