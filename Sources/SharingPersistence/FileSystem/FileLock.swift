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
