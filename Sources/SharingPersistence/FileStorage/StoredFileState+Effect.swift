import Foundation
import SharingCore

// NB: The vocabulary of the state machine: what it knows of the watch, and the effects it
//     hands to its executor.
extension StoredFileState {
  /// The watch of the file, while it has subscribers.
  enum Watch {
    case none
    case starting(generation: Int)
    case active(generation: Int, FileWatch)
  }

  /// Work for ``StoredFile`` to do, in order, outside the lock.
  enum Effect {
    /// Encode and write this write now, on this thread.
    case write(WriteThrottle.Ticket)
    /// Call ``scheduledTimeCame(now:)`` after this delay.
    case scheduleWrite(after: Duration)
    case resume([SaveContinuation], Result<Void, any Error>)
    case finishFlushes([@Sendable () -> Void])
    case registerPending
    case unregisterPending
    case startWatching(generation: Int)
    case stopWatching(FileWatch)
    /// Read the file, and pass it to ``fileRead(_:verifying:thread:)``.
    case checkFile(verifying: Int?)
    case playBack(PlaybackQueue.Step)
    /// Remove the record from its storage: nothing needs it.
    case release
    /// A programmer error.
    case report(String)
  }
}

extension StoredFileState.Effect {
  /// One file used both with and without coordination.
  static func reportMixedCoordination(of url: URL) -> Self {
    .report(
      """
      The file \(url.path) is used both with and without '.coordinated'. Changes made \
      without it can overwrite coordinated ones, and coordinated changes are not played \
      back to the keys without it: give every use of the file the same coordination.
      """
    )
  }

  /// One file used with two throttles.
  static func reportTwoThrottles(of url: URL, _ existing: Duration, _ other: Duration) -> Self {
    .report(
      """
      The file \(url.path) is used with two throttles: \(existing) and \(other). Every \
      use of a file shares one value, saved with the throttle of the key that saves it: \
      give every use of the file the same throttle.
      """
    )
  }
}
