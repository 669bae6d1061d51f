import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Work that must finish before the process exits normally: pending file writes and
/// unsynchronised user defaults.
///
/// The first registration installs an `atexit` handler that runs every flush, in order of
/// registration, synchronously on the exiting thread. Nothing here relies on a run loop or on
/// `DispatchQueue.main`, so command-line programs are covered too.
enum ExitFlush {
  private static let flushes = Mutex<[@Sendable () -> Void]>([])

  private static let installHandler: Void = {
    atexit { ExitFlush.run() }
  }()

  /// Adds work to run at normal process exit (and from ``run()``).
  static func register(_ flush: @escaping @Sendable () -> Void) {
    _ = installHandler
    flushes.withLock { $0.append(flush) }
  }

  /// Runs every registered flush now.
  static func run() {
    for flush in flushes.withLock({ $0 }) { flush() }
  }
}
