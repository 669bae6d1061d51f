import Foundation

/// The file operations behind ``FileStorage``: the real disk or a virtual file system.
protocol FileSystemBackend: Sendable {
  /// The bytes of the file at `url`, or `nil` if there is no file.
  ///
  /// - Throws: If the file exists but cannot be read (for example, it is a directory).
  func contents(of url: URL) throws -> Data?

  /// Replaces the file at `url` atomically, creating its parent directories: through a
  /// symbolic link, the file the link leads to. The file keeps the permissions of the file
  /// it replaces.
  func write(_ data: Data, to url: URL) throws

  /// Creates a file at `url`, in the directory of the file at `template`, holding `data`
  /// with the template's permissions, only if there is nothing there, not even a symbolic
  /// link (never followed); returns whether it did. The file appears whole or not at all,
  /// and of two processes creating one name at once, one finds it taken.
  func create(_ data: Data, at url: URL, permissionsOf template: URL) throws -> Bool

  /// Writes or deletes (`nil`) a file as another program would: watchers are told, and
  /// ``FileStorage`` treats it as an external change.
  func externalWrite(_ data: Data?, to url: URL) throws

  /// Calls `onChange` after the file at `url` may have been written, deleted, renamed over
  /// or re-created by someone else, until the returned watch is stopped.
  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> FileWatch

  /// Creates an empty file at `url`, and its directory, if there is no file there, as
  /// swift-sharing does for a file it watches; never touches a file that exists.
  func createEmptyFileIfMissing(at url: URL)

  /// Removes the temporary files that writes of `url` killed before their rename left behind.
  func removeAbandonedTemporaryFiles(of url: URL)

  /// Locks the file at `url` against every other holder of its lock, in any process, waiting
  /// while another holds it (on the disk, at most its ``DiskFileSystem/lockTimeout``): alone
  /// if `exclusive`, else with other readers.
  ///
  /// A thread asking for a lock it holds gets, at once, a lock that is a
  /// ``FileLock/isReentry``: waiting would be for itself, forever.
  ///
  /// - Throws: A ``FileError/lockFailed(url:lockURL:cause:)`` naming why the lock cannot be
  ///   taken, or a ``FileError/protectedSymbolicLink(link:owner:)`` if a link leading to the
  ///   file must not be followed.
  func lock(_ url: URL, exclusive: Bool) throws -> FileLock
}
