import Foundation

/// Why a file was not read, written or locked: the ``/SharingCore/Shared/loadError`` or
/// ``/SharingCore/Shared/saveError`` of what was not done, or, for the lock file's own
/// failures, the cause a ``lockFailed(url:lockURL:cause:)`` names.
enum FileError: LocalizedError, CustomStringConvertible {
  /// The file at `url` could not be locked: its lock file, at `lockURL`, could not be, because
  /// of `cause`.
  case lockFailed(url: URL, lockURL: URL, cause: any Error)
  /// Something other than a regular file is at the lock file's path: `found` says what ("a
  /// symbolic link", "a FIFO", "a directory"…). A lock file is never followed when it is a
  /// symbolic link, so that a link planted beside the file cannot make the process create or
  /// lock a file elsewhere, and never opened when it is a FIFO, which would wait for a writer
  /// forever.
  case unusableLockFile(found: String)
  /// Another holder kept the lock longer than the storage waits: `waited`.
  case lockTimedOut(waited: Duration)
  /// A coordinated change of the file at `url` was made from inside a change of the same
  /// file, on the thread holding its lock, whose write would replace it.
  case nestedChange(url: URL)
  /// The file at `url` exists but could not be read, because of `cause`, so it was not
  /// overwritten: the error of its writes until it can be read or is removed. No `cause` once
  /// it could be read again, with a value that was loaded instead of being overwritten.
  case unreadable(url: URL, cause: (any Error)?)
  /// A coordinated change was refused: the file at `url` holds bytes that cannot be decoded
  /// (`cause`), which the change would replace. They were kept aside at `keptAt`, if they
  /// could be.
  case undecodable(url: URL, keptAt: URL?, cause: any Error)
  /// A symbolic link leading to the file, at `link`, belongs to another user, `owner`, in a
  /// directory anyone may write to: following it could let that user choose which file this
  /// process writes. The rule is Linux's `fs.protected_symlinks`, applied whether or not the
  /// system enables it: a link in a sticky, world-writable directory (such as `/tmp`) is
  /// followed only by its owner, or when it belongs to the directory's owner.
  case protectedSymbolicLink(link: URL, owner: uid_t)
  /// `url` names no file (`https://…`): its path is not a file's, and is never read or
  /// written as one.
  case notAFileURL(URL)

  var description: String {
    switch self {
    case .lockFailed(let url, let lockURL, let cause):
      """
      The file at \(url.path) could not be locked against other processes: \(lockURL.path) \
      could not be locked (\(cause)).
      """
    case .unusableLockFile(let found):
      "it is \(found), not a regular file; remove it, and it is made again as one"
    case .lockTimedOut(let waited):
      """
      another process held it for longer than \(waited), the longest a file storage waits for \
      it (see FileStorage.fileSystem(throttle:lockTimeout:))
      """
    case .nestedChange(let url):
      """
      The change of \(url.path) was not written: it was made from inside a change of the same \
      file.
      """
    case .unreadable(let url, nil):
      """
      The file at \(url.path) can be read again: its value was loaded instead of being \
      overwritten. Change the value again to write it.
      """
    case .unreadable(let url, let cause?):
      """
      The file at \(url.path) exists but cannot be read (\(cause)), so it is not \
      overwritten: make it readable, or remove it.
      """
    case .undecodable(let url, let keptAt, let cause):
      """
      The file at \(url.path) cannot be decoded (\(cause)), so the change was not written: \
      fix or remove the file.\(keptAt.map { " Its bytes are also kept in \($0.path)." } ?? "")
      """
    case .protectedSymbolicLink(let link, let owner):
      """
      The symbolic link at \(link.path) was not followed: it belongs to another user (uid \
      \(owner)) in a sticky directory anyone may write to, so following it could make this \
      process read or write a file that user chose (as Linux's fs.protected_symlinks refuses). \
      Use the file it leads to directly, or a link of your own.
      """
    case .notAFileURL(let url):
      """
      \(url) is not a file URL: file storage reads and writes files, at URLs such as \
      URL(fileURLWithPath:) makes.
      """
    }
  }

  var errorDescription: String? { description }

  /// Whether the file was not locked because another holder kept its lock past the wait.
  var isLockTimeout: Bool {
    guard case .lockFailed(_, _, let cause) = self, case .lockTimedOut = cause as? Self else {
      return false
    }
    return true
  }
}
