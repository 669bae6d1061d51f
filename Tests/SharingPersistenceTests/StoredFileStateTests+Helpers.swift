import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

// NB: Events and effects as the tests write and read them.
extension StoredFileStateTests {
  // MARK: Helpers

  func write(_ value: String, _ resumed: Locked<[String]>? = nil) -> PendingWrite {
    PendingWrite(
      encode: { bytes(value) },
      continuations: resumed.map { resumed in
        [SaveContinuation(value) { _ in resumed.withLock { $0.append(value) } }]
      } ?? []
    )
  }

  func takenWrite(_ effects: [StoredFileState.Effect]) -> WriteThrottle.Ticket? {
    for case .write(let ticket) in effects { return ticket }
    return nil
  }

  /// Lands a write as written.
  mutating func land(_ ticket: WriteThrottle.Ticket) throws {
    run(
      file.writeFinished(
        ticket,
        bytes: try ticket.write.encode(),
        wrote: true,
        result: .success(()),
        thread: thread
      )
    )
  }

  mutating func subscribeID() -> Int {
    let (id, _) = file.subscribed { _ in }
    return id
  }

  /// Subscribes, and returns the generation of the watch to start.
  mutating func subscribe() throws -> Int {
    let (_, effects) = file.subscribed { _ in }
    for case .startWatching(let generation) in effects { return generation }
    throw CancellationError()
  }

  /// Resumes the continuations and flushes the effects finish, as the executor would.
  func run(_ effects: [StoredFileState.Effect]) {
    for effect in effects {
      switch effect {
      case .resume(let continuations, let result):
        for continuation in continuations { continuation.resume(with: result) }
      case .finishFlushes(let flushes):
        for done in flushes { done() }
      default:
        break
      }
    }
  }

  func names(_ effects: [StoredFileState.Effect]) -> [String] {
    effects.map { effect in
      switch effect {
      case .write(let ticket): "write \(text(try? ticket.write.encode()) ?? "?")"
      case .scheduleWrite(let delay): "schedule \(delay)"
      case .resume(let continuations, _): "resume \(continuations.count)"
      case .finishFlushes(let flushes): "finish \(flushes.count) flushes"
      case .registerPending: "registerPending"
      case .unregisterPending: "unregisterPending"
      case .startWatching: "startWatching"
      case .stopWatching: "stopWatching"
      case .checkFile: "checkFile"
      case .playBack(.deliver): "deliver"
      case .playBack(.wait): "wait"
      case .playBack(.hand): "hand"
      case .release: "release"
      case .report: "report"
      }
    }
  }

  func decision(_ decision: WriteDecision?) -> String {
    switch decision {
    case .none: "check first"
    case .skip: "skip"
    case .write(let kept?): "write, keeping aside \(text(kept) ?? "")"
    case .write(nil): "write"
    case .fail: "fail"
    }
  }
}
