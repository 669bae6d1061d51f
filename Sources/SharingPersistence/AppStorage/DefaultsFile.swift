import Foundation

/// The property list file in which Foundation keeps a user defaults store on Linux.
///
/// Foundation keeps `UserDefaults.standard` in `<config>/<process name>.plist`, a suite named
/// `name` in `<config>/name.plist`, and a suite named by an absolute path at `<path>.plist`,
/// where `<config>` is `$XDG_CONFIG_HOME` or `~/.config`.
struct DefaultsFile: Hashable, Sendable {
  let path: String

  /// The file of `store`, or `nil` where Foundation keeps stores some other way.
  static func of(_ store: UserDefaults) -> DefaultsFile? {
    #if os(Linux)
      // NB: Foundation keeps a store's suite name private; reflection shows it.
      let mirrors = sequence(first: Mirror(reflecting: store), next: \.superclassMirror)
      let suite = mirrors.lazy.compactMap { $0.descendant("suite") as? String }.first
      let name = suite ?? ProcessInfo.processInfo.processName
      if name.hasPrefix("/") { return DefaultsFile(path: name + ".plist") }
      return DefaultsFile(
        path: (configDirectory as NSString).appendingPathComponent(name + ".plist")
      )
    #else
      return nil
    #endif
  }

  private static var configDirectory: String {
    let environment = ProcessInfo.processInfo.environment
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
    // NB: Foundation's preferences follow '$HOME'; 'NSHomeDirectory()' may not.
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return (home as NSString).appendingPathComponent(".config")
  }

  /// The file's URL.
  var url: URL { URL(fileURLWithPath: path) }

  /// The file's bytes, `nil` if there is none, read with its lock shared with other readers:
  /// never half-written by a process of the package, which writes it with the lock held
  /// (Foundation writes a store's file in place, not by replacing it).
  func contents() throws -> Data? {
    let lock = try? DiskFileSystem().lock(url, exclusive: false)
    defer { lock?.unlock() }
    return try DiskFileSystem().contents(of: url)
  }

  /// Whether `bytes` are not a property list of keys, which Foundation reads as an empty
  /// store, and replaces at its next synchronization.
  ///
  /// A file larger than 256 KB in the format Foundation writes is judged by its structure,
  /// without parsing its values (see ``PropertyListKeys``): parsing one takes seconds on Linux
  /// (half a second per megabyte).
  static func isUnparseable(_ bytes: Data) -> Bool {
    guard !bytes.isEmpty else { return false }
    if bytes.count > 256 * 1024, PropertyListKeys.fingerprints(of: bytes) != nil { return false }
    return !(PropertyListBytes.parsed(bytes) is [String: Any])
  }

  /// Why the file cannot be written, in a user's terms, or `nil` if nothing outside
  /// Foundation prevents it.
  func reasonItCannotBeWritten() -> String? {
    if access(path, F_OK) == 0 { return access(path, W_OK) == 0 ? nil : reason() }
    var directory = (path as NSString).deletingLastPathComponent
    while !directory.isEmpty {
      var info = stat()
      if stat(directory, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a folder" }
        return access(directory, W_OK | X_OK) == 0 ? nil : "\(directory): \(reason())"
      }
      if directory == "/" { break }
      directory = (directory as NSString).deletingLastPathComponent
    }
    return "its folder could not be created"
  }

  /// What `access` failed with, in a user's terms: "permission denied", "read-only file
  /// system".
  private func reason() -> String {
    String(cString: strerror(errno)).lowercased()
  }
}
