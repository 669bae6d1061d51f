import Foundation
import SharingDependencies

/// Writes user defaults stores to their files, with the lock of every store file in use held
/// against every process.
///
/// Foundation on Linux (CFPreferences, in swift-corelibs-foundation) keeps each store in
/// memory, and touches its file only when `synchronize()` is called, never on its own (no
/// timer, nothing at exit). `synchronize()` acts on every store of the process, not only
/// the one it is called on: a store with changes has its file read again, the keys changed
/// in this process set over what it holds, and the result written whole, in place; a store
/// without changes drops its copy, to read the file again when next used. A key set to the
/// value the copy holds is not a change, so a process holding an old copy may not write it.
///
/// So the package writes a store, and learns what other processes wrote, only here: with
/// the lock of every store file in use held (`flock` on `.<name>.plist.lock`, as
/// coordinated files are locked), each process in turn merges its own changes into the
/// newest file, and Foundation never writes a copy older than the file over another
/// process's keys.
final class DefaultsSynchronizer: Sendable {
  static let shared = DefaultsSynchronizer()

  private struct File {
    /// The keys of each record of the file, which is in use while it has one: synchronizing
    /// any store writes all of them.
    var keys: [ObjectIdentifier: DefaultsKeys] = [:]
    /// The unreadable bytes last kept aside, and where.
    var kept: (bytes: Data, path: String)?
  }

  /// Held while Foundation writes the stores, so that every store in use is prepared.
  private let files = Locked<[String: File]>([:])
  /// Held through each synchronization, by every synchronizer: Foundation writes every store
  /// of the process at once, so synchronizations are made one at a time, rather than each
  /// wait for the locks that another holds. Each waits at most the lock timeout for each
  /// lock, so each ends.
  private static let synchronizing = Lock()
  /// The longest a synchronization waits for the lock of a store file.
  private let lockTimeout: Duration

  init(lockTimeout: Duration = FileStorage.defaultLockTimeout) {
    self.lockTimeout = lockTimeout
  }

  /// Locks `file` around every synchronization, and prepares the changes of `keys` to it,
  /// until ``close(_:keys:)``.
  func open(_ file: DefaultsFile, keys: DefaultsKeys) {
    files.withLock { $0[file.path, default: File()].keys[ObjectIdentifier(keys)] = keys }
  }

  func close(_ file: DefaultsFile, keys: DefaultsKeys) {
    files.withLock { files in
      files[file.path]?.keys[ObjectIdentifier(keys)] = nil
      if files[file.path]?.keys.isEmpty == true { files[file.path] = nil }
    }
  }

  /// Synchronizes the store of `keys` with its file, `file` (`nil` where Foundation keeps
  /// stores some other way), holding the lock of every store file in use; returns what the
  /// file holds afterwards, the changes written, and the processor time Foundation took
  /// (while it blocks every access to user defaults).
  ///
  /// A file that is not a property list is kept aside first, unless it was already. Foundation
  /// writes every store of the process: the changes of every store in use are prepared
  /// against what its file holds right before (see ``DefaultsKeys/changesToWrite(over:)``).
  ///
  /// - Throws: An ``AppStorageError`` if the file could not be locked or written, if the
  ///   lock of another store file in use was held past the wait, or if unreadable bytes of a
  ///   store could not be kept aside (nothing is written in the last two cases).
  func synchronize(
    _ keys: DefaultsKeys,
    _ file: DefaultsFile?
  ) throws -> (contents: Data?, written: [String: Bool], work: Duration) {
    try Self.synchronizing.withLock {
      let paths = files.withLock { Set($0.keys).union(file.map { [$0.path] } ?? []).sorted() }
      var locks: [FileLock] = []
      defer { for lock in locks { lock.unlock() } }
      let disk = DiskFileSystem(lockTimeout: lockTimeout)
      // Taken in the same order by every process, so that none waits for another that
      // waits for it.
      for path in paths {
        do {
          locks.append(try disk.lock(URL(fileURLWithPath: path), exclusive: true))
        } catch {
          if let file, path == file.path {
            throw AppStorageError.notSaved(
              path: path,
              reason: file.reasonItCannotBeWritten() ?? "\(error)"
            )
          }
          // A lock file that cannot be made is in a folder Foundation cannot write either. A
          // lock held past the wait fails the synchronization: Foundation would write that
          // store over what its holder writes.
          guard (error as? FileError)?.isLockTimeout == true else { continue }
          throw AppStorageError.notSaved(
            path: file?.path,
            reason: """
              Foundation writes every store of the process at once, and the store file at \
              \(path) stayed locked past the wait (\(error))
              """
          )
        }
      }
      var contentsOfPath: [String: Data?] = [:]
      for path in paths {
        let other = DefaultsFile(path: path)
        let bytes = try? other.contents()
        try keepAsideIfUnparseable(other, bytes)
        contentsOfPath[path] = .some(bytes)
      }
      let before = file.flatMap { contentsOfPath[$0.path] } ?? nil
      let (written, synchronized, work) = files.withLock { files in
        for path in files.keys where contentsOfPath[path] == nil {
          // NB: Opened since the files were locked: the default values Foundation is about to
          //     write are checked against its file, locked if the lock is free. One held
          //     elsewhere is not waited for, as its turn in the order has passed: the store is
          //     then written without it (see the CHANGELOG's known problems).
          let other = URL(fileURLWithPath: path)
          if let lock = try? DiskFileSystem(lockTimeout: .zero).lock(other, exclusive: true) {
            locks.append(lock)
          }
          contentsOfPath[path] = .some(try? DiskFileSystem().contents(of: other))
        }
        for (path, file) in files {
          for other in file.keys.values where other !== keys {
            _ = other.changesToWrite(over: contentsOfPath[path] ?? nil)
          }
        }
        let written = keys.changesToWrite(over: before)
        let (synchronized, work) = measuringProcessorTime { keys.store.base.synchronize() }
        return (written, synchronized, work)
      }
      let after = try file?.contents()
      // Foundation's result covers every store of the process: whether this one was
      // written is told by its own file.
      if !synchronized, after == before, let file, let reason = file.reasonItCannotBeWritten() {
        throw AppStorageError.notSaved(path: file.path, reason: reason)
      }
      return (after, written, work)
    }
  }

  /// Copies what `file` holds aside if it is not a property list Foundation can read, once
  /// for each version (beside it, under a name no other file has, with its permissions);
  /// returns why the file cannot be read, if it cannot.
  ///
  /// - Parameter bytes: What the file was read to hold: only a file read unreadable is read
  ///   again, with its lock held, and judged.
  /// - Throws: ``AppStorageError/notKept(path:reason:)`` if the bytes could not be copied.
  @discardableResult
  func keepAsideIfUnparseable(_ file: DefaultsFile, _ bytes: Data?) throws -> AppStorageError? {
    guard let bytes, DefaultsFile.isUnparseable(bytes) else { return nil }
    // Held while the bytes are kept, so that two threads never keep one version twice.
    let lock = try? DiskFileSystem().lock(file.url, exclusive: true)
    defer { lock?.unlock() }
    guard let bytes = try? file.contents(), DefaultsFile.isUnparseable(bytes) else { return nil }
    if let kept = files.withLock({ $0[file.path]?.kept }), kept.bytes == bytes {
      return .unreadableFile(path: file.path, keptAt: kept.path)
    }
    let keptAt: String
    do {
      keptAt = try CorruptFile.preserve(bytes, of: file.url, in: DiskFileSystem()).path
    } catch {
      throw AppStorageError.notKept(path: file.path, reason: "\(error)")
    }
    files.withLock { $0[file.path]?.kept = (bytes, keptAt) }
    return .unreadableFile(path: file.path, keptAt: keptAt)
  }
}
