public import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What keeps a program from reading or writing a file, in its user's words.
///
/// ```swift
/// FileProblem.reason(for: error, at: URL(fileURLWithPath: "/tmp/notes/todos.json"))
/// // "/tmp/notes is a file, not a directory"
/// ```
///
/// Foundation's own descriptions name the error, not the file ("A file with the same name
/// already exists.", "(NSCocoaErrorDomain error 256.)"); this looks at the path itself, then
/// at the system error underneath, then, for an error that has none (a lock file beside it
/// that could not be created), at whether this process may write the file and its
/// directory: `/srv/notes is not writable (read-only file system)`.
public enum FileProblem {
  /// Why a file could not be read or written: a phrase to follow a colon, such as
  /// `it is a directory, not a file` or `permission denied`.
  ///
  /// - Parameters:
  ///   - error: The error reading or writing the file failed with.
  ///   - url: The file.
  /// - Returns: The reason, without a final period.
  public static func reason(for error: any Error, at url: URL) -> String {
    if let file = fileInPlaceOfDirectory(above: url) {
      return "\(file.path) is a file, not a directory"
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      return "it is a directory, not a file"
    }
    if let code = systemErrorCode(of: error) {
      return description(of: code)
    }
    if let reason = writeAccessProblem(at: url) {
      return reason
    }
    return lowercasingFirstLetter(
      error.localizedDescription
        .replacingOccurrences(of: "The operation could not be completed. ", with: "")
        .trimmingCharacters(in: CharacterSet(charactersIn: ".").union(.whitespaces))
    )
  }

  /// The nearest directory on the way to `url` that is a file instead.
  private static func fileInPlaceOfDirectory(above url: URL) -> URL? {
    var directory = url.standardizedFileURL.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    while !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      let parent = directory.deletingLastPathComponent()
      guard parent.path != directory.path else { return nil }
      directory = parent
    }
    return isDirectory.boolValue ? nil : directory
  }

  /// Why this process may not write `url`, if the system says it may not: the file is not
  /// writable, or the nearest directory on the way to it takes no new files.
  private static func writeAccessProblem(at url: URL) -> String? {
    let path = url.standardizedFileURL.path
    if access(path, F_OK) == 0 {
      return access(path, W_OK) == 0 ? nil : description(of: errno)
    }
    var directory = url.standardizedFileURL.deletingLastPathComponent()
    while access(directory.path, F_OK) != 0 {
      let parent = directory.deletingLastPathComponent()
      guard parent.path != directory.path else { return nil }
      directory = parent
    }
    guard access(directory.path, W_OK | X_OK) != 0 else { return nil }
    return "\(directory.path) is not writable (\(description(of: errno)))"
  }

  /// A system error in words, such as `permission denied`.
  private static func description(of code: Int32) -> String {
    lowercasingFirstLetter(String(cString: strerror(code)))
  }

  /// The `errno` value behind an error, however Foundation wrapped it.
  private static func systemErrorCode(of error: any Error) -> Int32? {
    if let error = error as? POSIXError { return error.code.rawValue }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
    guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
    return systemErrorCode(of: underlying)
  }

  private static func lowercasingFirstLetter(_ text: String) -> String {
    text.prefix(1).lowercased() + text.dropFirst()
  }
}
