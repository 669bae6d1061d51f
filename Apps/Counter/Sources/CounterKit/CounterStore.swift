public import Foundation

/// The user defaults `--store` names.
public enum CounterStore {
  /// User defaults kept in a property list at `path`.
  ///
  /// Foundation keeps a suite named by an absolute path in `<path>.plist`, so a path
  /// already ending in `.plist` loses that extension first.
  ///
  /// - Parameter path: The file, absolute or relative to the current directory.
  /// - Returns: The user defaults, or `nil` if Foundation refuses the path.
  public static func userDefaults(atPath path: String) -> UserDefaults? {
    var url = URL(fileURLWithPath: path).standardizedFileURL
    if url.pathExtension == "plist" { url.deletePathExtension() }
    return UserDefaults(suiteName: url.path)
  }
}
