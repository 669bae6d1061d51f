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
