import Foundation
import SharingDependencies

/// Work that must finish before the process exits normally: pending file writes and
/// unsynchronised user defaults, then what tells other processes of those writes, then
/// removal of temporary stores.
///
/// The first registration installs an `atexit` handler that runs every flush synchronously
/// on the exiting thread: all ``Phase/write`` work in order of registration, then all
/// ``Phase/announce`` work, then all ``Phase/cleanUp`` work. Nothing here relies on a run loop or on `DispatchQueue.main`, so
/// command-line programs are covered too.
package enum ExitFlush {
  /// When registered work runs, relative to other work.
  package enum Phase: Sendable {
    /// Writing what is pending.
    case write
    /// Telling other processes of what was written.
    case announce
    /// Removing temporary files, after everything was written.
    case cleanUp
  }

  private static let flushes = Locked<[(phase: Phase, run: @Sendable () -> Void)]>([])

  private static let installHandler: Void = {
    atexit { ExitFlush.run() }
  }()

  /// Adds work to run at normal process exit.
  package static func register(_ phase: Phase = .write, _ flush: @escaping @Sendable () -> Void) {
    _ = installHandler
    flushes.withLock { $0.append((phase, flush)) }
  }

  /// Runs every registered flush now.
  static func run() {
    let flushes = flushes.withLock { $0 }
    for phase in [Phase.write, .announce, .cleanUp] {
      for flush in flushes where flush.phase == phase { flush.run() }
    }
  }
}
