public import Foundation

/// The user defaults `--store` names.
public enum CounterStore {
  /// The property list the values of `--store <path>` are kept in: `path`, if it ends in
  /// `.plist`, else `path` with `.plist` added.
  ///
  /// Foundation keeps a suite named by an absolute path in `<path>.plist`, so a path that
  /// does not end in `.plist` cannot be used as it is.
  ///
  /// - Parameter path: The path given, absolute or relative to the current directory.
  /// - Returns: The file.
  public static func file(forPath path: String) -> URL {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    return url.pathExtension == "plist" ? url : url.appendingPathExtension("plist")
  }

  /// The property list in which Foundation keeps the default user defaults of `counter` on
  /// Linux: `$XDG_CONFIG_HOME/counter.plist`, by default `~/.config/counter.plist`.
  ///
  /// - Parameter environment: The process's environment variables.
  /// - Returns: The file.
  public static func defaultFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let config: URL
    if let path = environment["XDG_CONFIG_HOME"], path.hasPrefix("/") {
      config = URL(fileURLWithPath: path)
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      config = URL(fileURLWithPath: home).appendingPathComponent(".config")
    }
    return config.appendingPathComponent("\(ProcessInfo.processInfo.processName).plist")
  }

  /// User defaults kept in the property list ``file(forPath:)`` names.
  ///
  /// - Parameter path: The path given, absolute or relative to the current directory.
  /// - Returns: The user defaults, or `nil` if Foundation refuses the path.
  public static func userDefaults(atPath path: String) -> UserDefaults? {
    UserDefaults(suiteName: file(forPath: path).deletingPathExtension().path)
  }
}
