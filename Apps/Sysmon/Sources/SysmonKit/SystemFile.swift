import CommandLineSupport
public import Foundation

extension URL {
  /// `/proc`, where Linux shows information about the running system as files.
  public static let proc = URL(fileURLWithPath: "/proc", isDirectory: true)
}

/// Reads the small text files of `/proc`.
enum SystemFile {
  /// The whole text of a file.
  ///
  /// Read to its end rather than by its size: the files of `/proc` report a size of zero.
  static func contents(of url: URL) throws(SystemReadingError) -> String {
    do {
      let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    } catch {
      throw .unreadable(url, reason: FileProblem.reason(for: error, at: url))
    }
  }
}
