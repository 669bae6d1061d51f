import Foundation
import SharingDependencies

/// The real file system: atomic replacement through a temporary sibling file, and change
/// notifications from ``FileWatcher``.
///
/// A file reached through symbolic links is written where they lead: the link stays a link,
/// and the file it leads to is replaced with the same permission bits (and, where allowed,
/// the same owner) it had. A link another user made in a sticky, world-writable directory is
/// not followed (see ``FileError/protectedSymbolicLink(link:owner:)``). A file made by
/// ``create(_:at:permissionsOf:)`` (a kept copy of unreadable bytes) is made only where
/// nothing is, never through a link.
struct DiskFileSystem: FileSystemBackend {
  /// What notices changes to the files.
  var watcher = FileWatcher.shared
  /// The longest ``lock(_:exclusive:)`` waits for a lock held elsewhere.
  var lockTimeout: Duration = FileStorage.defaultLockTimeout

  func contents(of url: URL) throws -> Data? {
    // Non-blocking, so that a FIFO in place of the file is refused below rather than
    // blocking until some writer opens it; reads of a regular file never block anyway.
    let descriptor = open(try Self.destination(of: url).path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      // A file where a parent directory should be also means there is no such file.
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw Self.posixError(errno)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw Self.posixError(errno) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw Self.posixError(EISDIR) }
    return try FileHandle(fileDescriptor: descriptor).readToEnd() ?? Data()
  }

  func write(_ data: Data, to url: URL) throws {
    let url = try Self.destination(of: url)
    try Self.createDirectory(of: url)
    // Flushed before the rename, so a crash right after it cannot leave an empty file.
    let temporary = try Self.writeTemporaryFile(data, beside: url, permissionsOf: url)
    guard rename(temporary.path, url.path) == 0 else {
      let error = Self.posixError(errno)
      unlink(temporary.path)
      throw error
    }
  }

  func create(_ data: Data, at url: URL, permissionsOf template: URL) throws -> Bool {
    // A temporary file of the template's, which a write of it removes if it is abandoned.
    let temporary = try Self.writeTemporaryFile(data, beside: template, permissionsOf: template)
    defer { unlink(temporary.path) }
    // `link` fails for anything at the path, a symbolic link included, wherever it leads:
    // the file appears whole, or not at all.
    guard link(temporary.path, url.path) == 0 else {
      if errno == EEXIST { return false }
      throw Self.posixError(errno)
    }
    return true
  }

  /// Writes `data` to a new temporary file in the directory of `url`, flushed to the disk,
  /// with the permission bits (and, where allowed, the owner) of the regular file at
  /// `template` if there is one; returns it.
  ///
  /// In the directory of `url`, so that renaming or linking it there stays on one file
  /// system. Readable by its owner only while it takes another file's permissions, so that
  /// the bytes of a private file are never readable by others, even in the temporary file.
  private static func writeTemporaryFile(
    _ data: Data,
    beside url: URL,
    permissionsOf template: URL
  ) throws -> URL {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      temporaryPrefix(of: url) + "\(UUID().uuidString).tmp"
    )
    var existing = stat()
    let keepsPermissions =
      stat(template.path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG
    let descriptor = open(
      temporary.path,
      O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
      keepsPermissions ? 0o600 : 0o644
    )
    guard descriptor >= 0 else { throw posixError(errno) }
    do {
      defer { close(descriptor) }
      if keepsPermissions {
        // Best effort: only a privileged process can give a file to another owner.
        if existing.st_uid != geteuid() || existing.st_gid != getegid() {
          _ = fchown(descriptor, existing.st_uid, existing.st_gid)
        }
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else { throw posixError(errno) }
      }
      try FileHandle(fileDescriptor: descriptor).write(contentsOf: data)
      guard fsync(descriptor) == 0 else { throw posixError(errno) }
    } catch {
      unlink(temporary.path)
      throw error
    }
    return temporary
  }

  /// `.<name>.`, how the names of the temporary files of `url` start.
  static func temporaryPrefix(of url: URL) -> String {
    ".\(siblingName(url, adding: ".".utf8.count * 2 + 36 + ".tmp".utf8.count))."
  }

  /// The name of `url`, cut short (by whole characters) if a sibling's name that adds
  /// `extra` bytes to it would be longer than a file's name may be (255 bytes): a file's
  /// temporary and lock files are named after it. Another file whose name starts the same
  /// then shares those names' start, or its lock file.
  static func siblingName(_ url: URL, adding extra: Int) -> Substring {
    var name = Substring(url.lastPathComponent)
    while name.utf8.count + extra > 255 { name.removeLast() }
    return name
  }

  /// Where reads and writes of `url` go: the file its symbolic links lead to, followed one
  /// by one, or `url` itself if it is not a link, or its links form a loop (which a write then
  /// replaces).
  ///
  /// - Throws: A ``FileError/protectedSymbolicLink(link:owner:)`` for a link that must not be
  ///   followed, or a ``FileError/notAFileURL(_:)`` for a URL of another scheme.
  static func destination(of url: URL) throws -> URL {
    // NB: A relative URL (`URL(string: "settings.json")`) has no scheme: a path it is.
    guard url.isFileURL || url.scheme == nil else { throw FileError.notAFileURL(url) }
    var path = url.path
    // As many links as the kernel follows before it reports a loop.
    for _ in 0..<40 {
      guard let link = symbolicLink(at: path) else { return URL(fileURLWithPath: path) }
      try checkMayFollow(linkAt: path)
      let directory = (path as NSString).deletingLastPathComponent
      path = link.hasPrefix("/") ? link : (directory as NSString).appendingPathComponent(link)
    }
    return url
  }

  /// Where the symbolic link at `path` points, or `nil` if there is no link there.
  ///
  /// Not `FileManager.destinationOfSymbolicLink(atPath:)`, which throws for every file that
  /// is no link: every watch asks, and a test framework may record where each error is thrown.
  private static func symbolicLink(at path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
    let count = buffer.withUnsafeMutableBytes {
      readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
    }
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  /// Refuses to follow the link at `path` when Linux's `fs.protected_symlinks` would: when
  /// it is in a sticky, world-writable directory, and belongs neither to this process's
  /// user nor to the directory's owner.
  private static func checkMayFollow(linkAt path: String) throws {
    var link = stat()
    var directory = stat()
    // A link that cannot be examined is followed: the call that follows it fails too.
    guard lstat(path, &link) == 0, link.st_uid != geteuid(),
      stat((path as NSString).deletingLastPathComponent, &directory) == 0,
      directory.st_mode & (S_ISVTX | S_IWOTH) == S_ISVTX | S_IWOTH,
      directory.st_uid != link.st_uid
    else { return }
    throw FileError.protectedSymbolicLink(link: URL(fileURLWithPath: path), owner: link.st_uid)
  }

  func createEmptyFileIfMissing(at url: URL) {
    guard (try? Self.destination(of: url)) != nil, access(url.path, F_OK) != 0, errno == ENOENT
    else { return }
    try? Self.createDirectory(of: url)
    // Exclusively: a file another program created meanwhile is left as it is.
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    if descriptor >= 0 { close(descriptor) }
  }

  func externalWrite(_ data: Data?, to url: URL) throws {
    guard let data else {
      guard unlink(url.path) == 0 || errno == ENOENT else { throw Self.posixError(errno) }
      return
    }
    try write(data, to: url)
  }

  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> FileWatch {
    let link = watcher.watch(path: url.path, onChange: onChange)
    guard let destination = try? Self.destination(of: url), destination.path != url.path else {
      return link
    }
    // Writes through a link replace the file it leads to, in its own directory.
    let target = watcher.watch(path: destination.path, onChange: onChange)
    // Live while both are: a watch stops being live when its directory can no longer be
    // watched.
    return FileWatch(isLive: { link.isLive && target.isLive }) {
      link.stop()
      target.stop()
    }
  }

  /// Creates the directory of the file at `url`, and its missing ancestors.
  static func createDirectory(of url: URL) throws {
    let directory = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  static func posixError(_ code: Int32) -> POSIXError {
    POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
  }
}
