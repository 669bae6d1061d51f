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

  /// User defaults kept in the property list ``file(forPath:)`` names.
  ///
  /// - Parameter path: The path given, absolute or relative to the current directory.
  /// - Returns: The user defaults, or `nil` if Foundation refuses the path.
  public static func userDefaults(atPath path: String) -> UserDefaults? {
    UserDefaults(suiteName: file(forPath: path).deletingPathExtension().path)
  }
}
