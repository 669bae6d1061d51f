import Dispatch
import Foundation
import SharingDependencies

/// Called with the file's contents when they changed.
typealias FileSubscriber = @Sendable (Result<Data?, any Error>) -> Void

/// Contents of the file to hand to its subscribers.
struct Playback {
  let result: Result<Data?, any Error>
  let subscribers: [FileSubscriber]
}

/// The order in which playbacks reach a file's subscribers: one at a time, the latest last.
///
/// Each playback is delivered by the thread that produced it, never by another: a thread that
/// finds another thread delivering waits for its turn (a thread delivering a playback that
/// produces another, through a subscriber, delivers it after its own). When a delivery ends,
/// only the newest waiting playback is still worth delivering: the older ones are passed over,
/// and their threads leave.
struct PlaybackQueue {
  private struct Waiting {
    let playback: Playback
    let thread: UInt
    /// `nil` for a playback produced by the delivering thread itself.
    let turn: PlaybackTurn?
  }

  /// The thread delivering a playback, if any.
  private(set) var deliveringThread: UInt?
  private var waiting: [Waiting] = []

  /// Whether a playback is being delivered or waits to be.
  var isBusy: Bool { deliveringThread != nil }

  /// What a thread does with a playback, or after delivering one.
  enum Step {
    /// Deliver this playback now, on this thread.
    case deliver(Playback)
    /// Wait for this turn, then deliver what it hands over, if anything.
    case wait(PlaybackTurn)
    /// Let another thread go on: with a playback to deliver, or with nothing.
    case hand(PlaybackTurn, Playback?)
  }

  /// Adds a playback produced by `thread`.
  mutating func enqueue(_ playback: Playback, thread: UInt) -> Step? {
    guard let deliveringThread else {
      self.deliveringThread = thread
      return .deliver(playback)
    }
    guard deliveringThread != thread else {
      waiting.append(Waiting(playback: playback, thread: thread, turn: nil))
      return nil
    }
    let turn = PlaybackTurn()
    waiting.append(Waiting(playback: playback, thread: thread, turn: turn))
    return .wait(turn)
  }

  /// Ends the delivery made by `thread`.
  mutating func finish(thread: UInt) -> [Step] {
    guard let newest = waiting.popLast() else {
      deliveringThread = nil
      return []
    }
    var steps = waiting.compactMap { $0.turn.map { Step.hand($0, nil) } }
    waiting = []
    deliveringThread = newest.thread
    if let turn = newest.turn {
      steps.append(.hand(turn, newest.playback))
    } else {
      steps.append(.deliver(newest.playback))
    }
    return steps
  }
}

/// A thread's turn to deliver a playback: it waits until the thread before it hands over.
final class PlaybackTurn: Sendable {
  private let handed = DispatchSemaphore(value: 0)
  private let playback = Locked<Playback?>(nil)

  /// Blocks until the turn comes; returns the playback to deliver, if it is still worth it.
  func wait() -> Playback? {
    handed.wait()
    return playback.withLock { $0 }
  }

  /// Hands the turn over, with the playback to deliver or with nothing.
  func hand(_ playback: Playback?) {
    self.playback.withLock { $0 = playback }
    handed.signal()
  }
}
