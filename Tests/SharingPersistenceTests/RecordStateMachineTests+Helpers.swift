import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// A record's state machine with bytes as stamps, as files have, fed events the way the
/// tests write them.
struct MachineUnderTest {
  var machine: RecordStateMachine<Data>
  /// The saves resumed so far, by the text of their value.
  let resumed = Locked<[String]>([])

  /// - Parameter loaded: What the program loaded from the store first, if it did:
  ///   `.some(nil)` for no file.
  init(
    interval: Duration = .seconds(1),
    writesQuietChangesAtOnce: Bool = true,
    retriesAfterDelay: Bool = false,
    mergesWrites: Bool = false,
    loaded: String?? = .some(nil)
  ) {
    machine = RecordStateMachine(
      interval: interval,
      writesQuietChangesAtOnce: writesQuietChangesAtOnce,
      retriesAfterDelay: retriesAfterDelay,
      mergesWrites: mergesWrites
    )
    // NB: Held, as by a key, so that the record is released only where a test says.
    machine.holderAdded()
    if case .some(let text) = loaded { load(.success(snapshot(text))) }
  }

  /// Loads `read`, ending its delivery to the shared values if it is handed to them.
  ///
  /// - Returns: Whether it is.
  @discardableResult
  mutating func load(_ read: Result<StoredSnapshot<Data>, any Error>) -> Bool {
    let outcome = machine.loadEnded(machine.loadStarted(), read, isLastAttempt: false) {}
    if outcome == .deliver { _ = machine.deliveryEnded() }
    return outcome == .deliver
  }

  /// A change to `text`; if `waited`, a save waits for it, which records its value in
  /// ``resumed`` when it is resumed.
  mutating func save(
    _ text: String,
    _ urgency: WriteUrgency = .throttled,
    at now: Duration = .zero,
    waited: Bool = false
  ) -> [RecordAction<Data>] {
    let resumed = self.resumed
    let write = PendingWrite(
      encode: { bytes(text) },
      continuations: waited
        ? [SaveContinuation(text) { _ in resumed.withLock { $0.append(text) } }] : []
    )
    return run(machine.saved(write, urgency: urgency, now: now))
  }

  /// Ends a write as written, or as failed with `error`.
  mutating func land(
    _ ticket: WriteTicket,
    failing error: (any Error)? = nil,
    at now: Duration = .zero
  ) -> [RecordAction<Data>] {
    let contents = try! ticket.write.encode()
    let outcome: WriteOutcome<Data> =
      error.map { .failed($0) } ?? .wrote(contents, contents: contents)
    return run(machine.writeEnded(ticket, outcome, now: now))
  }

  /// Subscribes, and returns the read that verifies the watch once it started.
  mutating func subscribe() throws -> ReadTicket {
    guard case .startWatching(let generation)? = machine.subscribed().first else {
      throw TakenNothing()
    }
    return try reading(machine.watchStarted(generation: generation) ?? [])
  }

  /// Subscribes, with the watch started and verified on a file holding `text`, delivered if
  /// the program did not know it.
  mutating func watch(finding text: String?) throws {
    let read = read(try subscribe(), finding: text)
    if case .deliver? = read.last { _ = machine.deliveryEnded() }
  }

  /// Loses the store, ending the delivery of the error to the subscribers if there is one.
  mutating func loseStore() {
    let lost = machine.becameUnreachable(because: CancellationError())
    if case .deliver? = lost.last { _ = machine.deliveryEnded() }
  }

  /// Ends a read as having found `text` (`nil`: no file), or failed with `error`.
  mutating func read(
    _ ticket: ReadTicket,
    finding text: String?,
    failing error: (any Error)? = nil
  ) -> [RecordAction<Data>] {
    let read: Result<StoredSnapshot<Data>, any Error> =
      error.map { .failure($0) } ?? .success(snapshot(text))
    return run(machine.readEnded(ticket, read))
  }

  /// Resumes the saves and calls the flushes the actions finish, as the executor would.
  func run(_ actions: [RecordAction<Data>]) -> [RecordAction<Data>] {
    for action in actions {
      switch action {
      case .resume(let continuations, let result):
        for continuation in continuations { continuation.resume(with: result) }
      case .finishFlushes(let flushes):
        for done in flushes { done() }
      default:
        break
      }
    }
    return actions
  }
}

/// What a file holding `text` reads as (`nil`: no file).
func snapshot(_ text: String?) -> StoredSnapshot<Data> {
  StoredSnapshot(stamp: text.map(bytes), contents: text.map(bytes))
}

/// The write the actions take, to be written or checked first.
func taken(_ actions: [RecordAction<Data>]) throws -> WriteTicket {
  for action in actions {
    switch action {
    case .write(let ticket), .checkBeforeWriting(let ticket): return ticket
    default: continue
    }
  }
  throw TakenNothing()
}

/// The read the actions ask for.
func reading(_ actions: [RecordAction<Data>]) throws -> ReadTicket {
  for case .read(let ticket) in actions { return ticket }
  throw TakenNothing()
}

struct TakenNothing: Error {}

/// The actions, as the tests compare them.
func names(_ actions: [RecordAction<Data>]) -> [String] {
  actions.compactMap { action in
    switch action {
    case .write(let ticket): "write \(text(try? ticket.write.encode()) ?? "?")"
    case .checkBeforeWriting(let ticket):
      "check, then write \(text(try? ticket.write.encode()) ?? "?")"
    case .schedule(let delay, retry: false): "schedule \(delay)"
    case .schedule(let delay, retry: true): "retry after \(delay)"
    case .resume(let continuations, let result):
      "resume \(continuations.count)\((try? result.get()) == nil ? " with error" : "")"
    case .discard: nil
    case .reportRetry(let result): "report retry\((try? result.get()) == nil ? " failed" : "")"
    case .finishFlushes(let flushes): "finish \(flushes.count) flushes"
    case .resumeLoads(let loads): "resume \(loads.count) loads"
    case .updatePending(isPending: true): "registerPending"
    case .updatePending(isPending: false): "unregisterPending"
    case .startWatching: "startWatching"
    case .stopWatching: "stopWatching"
    case .read: "read"
    case .deliver(.success(let snapshot)): "deliver \(text(snapshot.contents) ?? "nothing")"
    case .deliver(.failure): "deliver error"
    case .release: "release"
    }
  }
}
