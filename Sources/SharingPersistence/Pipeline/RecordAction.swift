package import Foundation
import SharingCore

/// What ``RecordStateMachine`` asks ``Record`` to do, after unlocking, in order.
enum RecordAction<Stamp: Equatable & Sendable> {
  /// Encode and write this write, then feed ``RecordStateMachine/writeEnded(_:_:now:)``.
  case write(WriteTicket)
  /// Read the store, feed ``RecordStateMachine/checkedBeforeWriting(_:_:now:)``, then go on
  /// as it says.
  case checkBeforeWriting(WriteTicket)
  /// Call ``RecordStateMachine/scheduledTimeCame(now:)`` after this delay, or
  /// ``RecordStateMachine/retryTimeCame(now:)`` for a `retry`.
  case schedule(after: Duration, retry: Bool = false)
  /// Resume these saves with this result.
  case resume([SaveContinuation], Result<Void, any Error>)
  /// Let go of a value that will not be written, outside the lock: what its encoding
  /// captures may be the last hold on a shared value, whose release calls back into the
  /// record.
  case discard(@Sendable () throws -> Data)
  /// Tell the subscribers how writing a failed value again went: no save waits on it.
  case reportRetry(Result<Void, any Error>)
  /// Call these flushes' completions.
  case finishFlushes([@Sendable () -> Void])
  /// Resume these loads, which waited for a transaction, read or delivery to end.
  case resumeLoads([@Sendable () -> Void])
  /// Add the record to its pending writes, flushed at exit, or remove it once it is idle:
  /// ``PendingWrites`` asks the record which.
  case updatePending(isPending: Bool)
  /// Start watching the store, then feed ``RecordStateMachine/watchStarted(generation:)``.
  case startWatching(generation: Int)
  /// Stop watching the store.
  case stopWatching
  /// Read the store, then feed ``RecordStateMachine/readEnded(_:_:)``.
  case read(ReadTicket)
  /// Hand this to every subscriber, then feed ``RecordStateMachine/deliveryEnded()``.
  case deliver(Result<StoredSnapshot<Stamp>, any Error>)
  /// Remove the record from its registry: nothing needs it.
  case release
}

extension RecordAction {
  /// Whether this is a read of the store.
  var isRead: Bool {
    if case .read = self { true } else { false }
  }

  /// Whether this is a delivery to the subscribers.
  var isDelivery: Bool {
    if case .deliver = self { true } else { false }
  }

  /// The write this action makes, or checks the store before making.
  var ticket: WriteTicket? {
    switch self {
    case .write(let ticket), .checkBeforeWriting(let ticket): ticket
    default: nil
    }
  }
}

/// A change waiting to be written: how to encode it, called only when it is written, and the
/// saves waiting on it.
struct PendingWrite: Sendable {
  var encode: @Sendable () throws -> Data
  var continuations: [SaveContinuation] = []
}

/// How soon a change must reach the store.
package enum WriteUrgency: Sendable {
  /// A change nobody waits for: within the interval.
  case background
  /// A change: at once in a quiet period, else after the interval.
  case throttled
  /// An explicit save: at once, or right after the write under way.
  case immediate
}

/// A write taken to be made.
struct WriteTicket: Sendable {
  let write: PendingWrite
  /// Its number: writes taken later have greater numbers.
  let sequence: UInt64
  /// Whether it was asked for at once (an explicit save, a flush), rather than by a throttle.
  let isUrgent: Bool
  /// Whether it writes again a failed value, with no save waiting on it.
  let isRetry: Bool
  /// Whether it carries a change saved during a delivery: it is read back once written.
  let echoes: Bool
  /// Bytes the store holds that could not be decoded: kept aside before writing.
  let keepingAside: Data?
  /// What the store holds, while a watch keeps that knowledge true: the same bytes are not
  /// written again.
  let unchangedContents: Data??
}

/// How a write ended.
enum WriteOutcome<Stamp: Sendable> {
  /// The store now holds `contents`, stamped `stamp`.
  case wrote(Stamp, contents: Data)
  /// The store held the bytes already.
  case skipped
  /// The write failed: it is made again later.
  case failed(any Error)
  /// The write was not made, as the store could not be read before it (`retried`: it is
  /// made again later) or holds a value that wins over the change.
  case refused(any Error, retried: Bool)
}

/// A read of the store taken to be made, a playback's or a load's: what was under way when it
/// began, to tell whether something newer came while it read.
struct ReadTicket: Equatable, Sendable {
  /// The number of writes taken when the read began: a write taken since may land after it.
  let writesTaken: UInt64
  /// The watch active when the read began: what it finds, if no write landed meanwhile, is
  /// what the store holds until that watch says otherwise.
  var verifiesWatch: Int? = nil
  /// The number of changes saved when the read began: one saved since is newer than it.
  var changesSaved: UInt64 = 0
  /// A load's: the number of times what the program knows of the store had changed then.
  var knowledge: UInt64 = 0
}

/// What becomes of what a load read.
enum LoadOutcome: Equatable, Sendable {
  /// It is handed to the shared values as a delivery, ended by
  /// ``RecordStateMachine/deliveryEnded()``.
  case deliver
  /// An error, handed to the shared values beside a read or delivery under way: it changes
  /// no value, so it cannot land after a newer one.
  case deliverBesideAnother
  /// The store is read again for the load, as another attempt: a change or write may have
  /// reached the shared values while it read, or be about to, that is newer than what it read.
  case readAgain
  /// The store is read again for the load once a transaction, read or delivery under way
  /// ended, which resumes the load: it brings the shared values something newer, and takes no
  /// attempt.
  case waitForOthers
}

/// What a store holds, as read.
package struct StoredSnapshot<Stamp: Sendable>: Sendable {
  /// Changes whenever the contents do; `nil` when the store holds nothing.
  package let stamp: Stamp?
  /// The bytes of the value; `nil` when the store holds no value.
  package let contents: Data?

  package init(stamp: Stamp?, contents: Data?) {
    self.stamp = stamp
    self.contents = contents
  }
}
