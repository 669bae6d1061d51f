import Foundation

/// A lock on a file held against other processes, taken by
/// ``FileSystemBackend/lock(_:exclusive:)``.
struct FileLock: Sendable {
  /// Whether the calling thread held the lock already, from inside a change of the file:
  /// nothing was taken, and ``unlock`` releases nothing.
  var isReentry = false
  /// Releases the lock.
  let unlock: @Sendable () -> Void
}

/// Why a file could not be locked: the ``/SharingCore/Shared/saveError`` of a coordinated
/// change, or the ``/SharingCore/Shared/loadError`` of a load, that was not made.
struct FileLockError: LocalizedError, CustomStringConvertible {
  /// The file that was to be read or changed.
  let url: URL
  /// The lock file beside it.
  let lockURL: URL
  /// Why the lock could not be taken.
  let cause: any Error

  var description: String {
    """
    The file at \(url.path) could not be locked against other processes: \(lockURL.path) \
    could not be locked (\(cause)).
    """
  }

  var errorDescription: String? { description }
}

/// Why a lock file was refused: something other than a regular file is at its path. A lock
/// file is never followed when it is a symbolic link, so that a link planted beside the file
/// cannot make the process create or lock a file elsewhere, and never opened when it is a
/// FIFO, which would wait for a writer forever.
struct UnusableLockFileError: Error, CustomStringConvertible {
  /// What is there instead: "a symbolic link", "a FIFO", "a directory"…
  let found: String

  var description: String {
    "it is \(found), not a regular file; remove it, and it is made again as one"
  }
}

/// Why a lock was not taken: another holder kept it longer than the storage waits.
struct FileLockTimeoutError: Error, CustomStringConvertible {
  /// How long the lock was waited for.
  let waited: Duration

  var description: String {
    """
    another process held it for longer than \(waited), the longest a file storage waits for \
    it (see FileStorage.fileSystem(throttle:lockTimeout:))
    """
  }
}

/// Why a coordinated change was refused: it was made from inside a change of the same file,
/// on the thread holding the file's lock, whose write would replace it.
struct NestedFileChangeError: LocalizedError, CustomStringConvertible {
  /// The file that was to be changed.
  let url: URL

  var description: String {
    """
    The change of \(url.path) was not written: it was made from inside a change of the same \
    file.
    """
  }

  var errorDescription: String? { description }
}
