import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

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
  /// A thread that holds the lock file's lock, for this path or another leading to the same
  /// file, gets a ``FileLock/isReentry`` lock at once.
  func lock(_ url: URL, exclusive: Bool) throws -> FileLock {
    let lockURL = Self.lockURL(of: url)
    // NB: 'flock' locks of one process conflict when made through two descriptors: the
    //     holder asking again would wait for itself.
    return try Self.holders.lock(lockURL.path) {
      try Self.takeLock(lockURL, of: url, exclusive: exclusive)
    }
  }

  /// The locks of lock files held by the threads of the process.
  private static let holders = FileLockHolders<String>()

  /// Takes the `flock` of `lockURL`, the lock file of `url`, waiting as long as it takes.
  private static func takeLock(
    _ lockURL: URL,
    of url: URL,
    exclusive: Bool
  ) throws -> FileLock {
    var descriptor = Self.openLockFile(lockURL, creating: exclusive)
    if descriptor < 0, errno == ENOENT || errno == ENOTDIR {
      guard exclusive else { return FileLock {} }
      // NB: As a write makes the file's directory, and failing for the same reason.
      try FileManager.default.createDirectory(
        at: lockURL.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      descriptor = Self.openLockFile(lockURL, creating: true)
    }
    guard descriptor >= 0 else {
      throw FileLockError(url: url, lockURL: lockURL, cause: Self.posixError(errno))
    }
    while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
      guard errno == EINTR else {
        let error = Self.posixError(errno)
        close(descriptor)
        throw FileLockError(url: url, lockURL: lockURL, cause: error)
      }
    }
    // NB: Closing the descriptor releases the lock.
    let locked = descriptor
    return FileLock { close(locked) }
  }

  /// The lock file of `url`.
  static func lockURL(of url: URL) -> URL {
    let destination = destination(of: url)
    return destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).lock")
  }

  // NB: Read-only: 'flock' needs no more, and a lock file made by another user can be
  //     opened by anyone who can read it.
  private static func openLockFile(_ url: URL, creating: Bool) -> Int32 {
    open(url.path, O_RDONLY | O_CLOEXEC | (creating ? O_CREAT : 0), 0o644)
  }
}
