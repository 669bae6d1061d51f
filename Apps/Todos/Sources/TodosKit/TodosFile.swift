public import Foundation

/// Where the todo list is kept.
public enum TodosFile {
  /// The file to use: the `--file` path, else `$TODOS_FILE`, else ``defaultURL``.
  ///
  /// - Parameters:
  ///   - path: The path given with `--file`, if any; relative to the current directory.
  ///   - environment: The process's environment variables.
  /// - Returns: The file.
  public static func url(
    path: String?,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let path = path ?? environment["TODOS_FILE"], !path.isEmpty {
      return URL(fileURLWithPath: path).standardizedFileURL
    }
    return defaultURL
  }

  /// `todos/todos.json` in the user's data directory: on Linux `$XDG_DATA_HOME`, by
  /// default `~/.local/share`; on Apple platforms `~/Library/Application Support`.
  public static var defaultURL: URL {
    let directory =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? FileManager.default.homeDirectoryForCurrentUser
    return directory.appendingPathComponent("todos/todos.json")
  }
}
