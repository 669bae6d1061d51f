public import Foundation

/// How a child process ended.
public struct ProcessEnd: Sendable, Equatable {
  /// Its exit status, or the number of the signal that ended it.
  public let status: Int32
  /// Whether a signal ended it.
  public let isSignalled: Bool
}

extension Process {
  /// How the process ended, or `nil` while it runs.
  ///
  /// Asked of the kernel while Foundation has not seen the end yet. Foundation learns that
  /// its child ended when a socket the child inherited closes, and a process another thread
  /// starts at the same moment can inherit that socket too (Foundation closes the descriptors
  /// it found open before it started the child, not those opened meanwhile) and keep it open
  /// for as long as it runs: `isRunning` then stays `true`, and `waitUntilExit()` waits,
  /// long after the child exited. `waitid` with `WNOWAIT` leaves the child for Foundation to
  /// reap.
  public var end: ProcessEnd? {
    guard isRunning else {
      return ProcessEnd(
        status: terminationStatus,
        isSignalled: terminationReason == .uncaughtSignal
      )
    }
    var info = siginfo_t()
    let options = WEXITED | WNOHANG | WNOWAIT
    // NB: Fails once Foundation reaped the child, until it says so through `isRunning`.
    guard waitid(P_PID, id_t(processIdentifier), &info, options) == 0 else { return nil }
    #if os(Linux)
      let (pid, status) = (info._sifields._sigchld.si_pid, info._sifields._sigchld.si_status)
    #else
      let (pid, status) = (info.si_pid, info.si_status)
    #endif
    guard pid == processIdentifier else { return nil }
    return ProcessEnd(status: status, isSignalled: info.si_code != CLD_EXITED)
  }

  /// Waits, blocking the thread, until the process ended; unlike `waitUntilExit()`, it
  /// returns as soon as the process exits (see ``end``).
  ///
  /// - Returns: How it ended.
  @discardableResult
  public func waitUntilEnded() -> ProcessEnd {
    while true {
      if let end { return end }
      usleep(5_000)
    }
  }
}
