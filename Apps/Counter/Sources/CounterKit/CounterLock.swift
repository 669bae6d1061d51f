public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes `counter` processes using one store run one at a time, so that ten counters started
/// at once count ten.
///
/// `appStorage` merges the keys each process changed into the store, but cannot make one
/// process's read-modify-write of a key exclusive (see *Linux notes*, “Changes from several
/// processes”). A `counter` process reads its store once, when it starts, and writes it once,
/// before it exits: holding an exclusive `flock` on a lock file beside the store for the
/// whole run makes each run start from the last one's values. It is not the store's own
/// lock file, `.<name>.lock`, which the package takes around each write.
///
/// ```swift
/// try CounterLock.holdUntilExit(beside: CounterStore.defaultFile())
/// let counter = Counter()   // reads the store only now
/// ```
public enum CounterLock {
  /// The lock file of `store`'s runs: `.<name>.counter.lock` beside it.
  ///
  /// - Parameter store: The property list of the store.
  /// - Returns: The lock file.
  public static func file(beside store: URL) -> URL {
    store.deletingLastPathComponent()
      .appendingPathComponent(".\(store.lastPathComponent).counter.lock")
  }

  /// Waits until no other process holds the lock of `store`, then holds it until this
  /// process exits, however it exits.
  ///
  /// - Parameter store: The property list of the store.
  /// - Throws: A `POSIXError` if the lock file cannot be created or locked.
  public static func holdUntilExit(beside store: URL) throws {
    let lock = file(beside: store)
    try FileManager.default.createDirectory(
      at: lock.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    let descriptor = open(lock.path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    // NB: Never closed: the kernel releases the lock when the process ends, after the
    //     values are written at exit.
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        close(descriptor)
        throw error
      }
    }
  }
}
