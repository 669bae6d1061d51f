import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// The property list file in which Foundation keeps a user defaults store on Linux.
///
/// Foundation keeps `UserDefaults.standard` in `<config>/<process name>.plist`, a suite named
/// `name` in `<config>/name.plist`, and a suite named by an absolute path at `<path>.plist`,
/// where `<config>` is `$XDG_CONFIG_HOME` or `~/.config`.
struct DefaultsFile: Sendable {
  let path: String

  /// The file of `store`, or `nil` where Foundation keeps stores some other way.
  static func of(_ store: UserDefaults) -> DefaultsFile? {
    #if os(Linux)
      // NB: Foundation keeps a store's suite name private; reflection shows it.
      var mirror: Mirror? = Mirror(reflecting: store)
      var suite: String?
      while let current = mirror {
        if let child = current.children.first(where: { $0.label == "suite" }) {
          suite = child.value as? String
          break
        }
        mirror = current.superclassMirror
      }
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

  /// The file's stamp, or `nil` if it does not exist.
  func stamp() -> FileStamp? {
    FileStamp(path: path)
  }

  /// The file's bytes if they are not a property list Foundation can read (which it would
  /// read as an empty store, and replace at its next synchronisation); `nil` otherwise.
  ///
  /// A file that changed while it was read is not judged: Foundation writes the file in
  /// place, so it was read half-written, and its next version will be checked.
  func unparseableContents() -> Data? {
    let before = stamp()
    guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
    let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
    guard !(plist is [String: Any]), stamp() == before else { return nil }
    return data
  }

  /// Copies `data` beside the file, under a name no other file has; returns that path.
  func keepAside(_ data: Data) throws -> String {
    let url = URL(fileURLWithPath: path)
    let date = Date()
    var attempt = 1
    while true {
      let kept = CorruptFile.preservationURL(for: url, at: date, attempt: attempt).path
      // NB: Created exclusively, with the file's permissions: the bytes of a private store
      //     stay private, and a name taken meanwhile is never overwritten.
      let descriptor = open(kept, O_WRONLY | O_CREAT | O_EXCL, permissions())
      if descriptor < 0 {
        guard errno == EEXIST else { throw AppStorageError.notKept(path: path, reason: reason()) }
        attempt += 1
        continue
      }
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      do {
        try handle.write(contentsOf: data)
        try handle.synchronize()
      } catch {
        throw AppStorageError.notKept(path: path, reason: error.localizedDescription)
      }
      return kept
    }
  }

  private func permissions() -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0o600 }
    return info.st_mode & 0o777
  }

  /// Why the file cannot be written, in a user's terms, or `nil` if nothing outside
  /// Foundation prevents it.
  func reasonItCannotBeWritten() -> String? {
    if access(path, F_OK) == 0 { return access(path, W_OK) == 0 ? nil : reason(EACCES) }
    var directory = (path as NSString).deletingLastPathComponent
    while !directory.isEmpty {
      var info = stat()
      if stat(directory, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a folder" }
        return access(directory, W_OK | X_OK) == 0 ? nil : "\(directory): \(reason(EACCES))"
      }
      if directory == "/" { break }
      directory = (directory as NSString).deletingLastPathComponent
    }
    return "its folder could not be created"
  }

  private func reason(_ code: Int32 = errno) -> String {
    String(cString: strerror(code)).lowercased()
  }
}
