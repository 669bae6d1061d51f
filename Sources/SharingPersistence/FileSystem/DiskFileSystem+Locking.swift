import Foundation

extension DiskFileSystem {
  /// Locks the file at `url` with `flock` on its lock file, `.<name>.lock` beside the file
  /// its symbolic links lead to: never on the file itself, which each write replaces.
  ///
  /// An exclusive lock creates the lock file (and its directory) if missing; it is empty, and
  /// never removed, which would let two processes lock two different files. A shared lock
  /// creates nothing: without a lock file no change was ever coordinated, and a read without
  /// the lock still sees a whole file, which writes replace by renaming. The kernel releases
  /// the lock when the process ends, however it ends.
  ///
  /// The lock file must be a regular file: a symbolic link there is never followed, nor
  /// created through, and a FIFO is never waited on. Another holder is waited for at most
  /// ``lockTimeout``.
  ///
  /// A thread that holds the lock file's lock, for this path or another leading to the same
  /// file, gets a ``FileLock/isReentry`` lock at once.
  func lock(_ url: URL, exclusive: Bool) throws -> FileLock {
    let lockURL = try Self.lockURL(of: url)
    // NB: 'flock' locks of one process conflict when made through two descriptors: the
    //     holder asking again would wait for itself.
    return try Self.holders.lock(lockURL.path) {
      do {
        return try Self.takeLock(lockURL, exclusive: exclusive, timeout: lockTimeout)
      } catch {
        throw FileError.lockFailed(url: url, lockURL: lockURL, cause: error)
      }
    }
  }

  /// The locks of lock files held by the threads of the process.
  private static let holders = FileLockHolders<String>()

  /// Takes the `flock` of the lock file at `lockURL`, waiting at most `timeout`.
  private static func takeLock(
    _ lockURL: URL,
    exclusive: Bool,
    timeout: Duration
  ) throws -> FileLock {
    var descriptor = openLockFile(lockURL, creating: exclusive)
    if descriptor < 0, errno == ENOENT || errno == ENOTDIR {
      guard exclusive else { return FileLock {} }
      // As a write makes the file's directory, and failing for the same reason.
      try createDirectory(of: lockURL)
      descriptor = openLockFile(lockURL, creating: true)
    }
    guard descriptor >= 0 else {
      // A symbolic link, which 'O_NOFOLLOW' refuses with 'ELOOP', is named.
      let code = errno
      var info = stat()
      guard code == ELOOP, lstat(lockURL.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK
      else { throw posixError(code) }
      throw FileError.unusableLockFile(found: describe(info.st_mode))
    }
    var info = stat()
    let isStated = fstat(descriptor, &info) == 0
    guard isStated, info.st_mode & S_IFMT == S_IFREG else {
      let error: any Error =
        isStated ? FileError.unusableLockFile(found: describe(info.st_mode)) : posixError(errno)
      close(descriptor)
      throw error
    }
    let locked = try takeFlock(
      descriptor,
      of: lockURL.path,
      exclusive: exclusive,
      timeout: timeout
    )
    // Closing the descriptor releases the lock.
    return FileLock { close(locked) }
  }

  /// The lock file of `url`: `.<name>.lock` beside the file its links lead to, the name cut
  /// short if it would be too long (see ``siblingName(_:adding:)``).
  ///
  /// - Throws: A ``FileError/protectedSymbolicLink(link:owner:)`` if a link leading to the file
  ///   must not be followed.
  static func lockURL(of url: URL) throws -> URL {
    let destination = try destination(of: url)
    return destination.deletingLastPathComponent()
      .appendingPathComponent(".\(siblingName(destination, adding: ".lock".utf8.count + 1)).lock")
  }

  // Read-only: 'flock' needs no more, and a lock file made by another user can be
  // opened by anyone who can read it. Non-blocking, so that opening a FIFO returns.
  private static func openLockFile(_ url: URL, creating: Bool) -> Int32 {
    open(
      url.path,
      O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (creating ? O_CREAT : 0),
      0o644
    )
  }

  /// What kind of file `mode` describes, with its article.
  private static func describe(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFLNK: "a symbolic link"
    case S_IFIFO: "a FIFO"
    case S_IFDIR: "a directory"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "of an unknown type"
    }
  }
}
