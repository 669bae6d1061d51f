import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// What a record's executor does with its store's I/O: here a store in memory whose watch
/// can stop seeing every change.
@Suite struct RecordTests {
  let store = FakeStore()
  let record: Record<FakeStore>

  init() {
    record = Record(
      io: store,
      machine: RecordStateMachine(interval: .zero),
      scheduler: ManualWriteScheduler(),
      pendingWrites: PendingWrites()
    )
    record.holderAdded()
    record.load { _ in }
  }

  @Test func identicalBytesAreSkippedWhileAVerifiedWatchSeesEveryChange() {
    let unsubscribe = record.subscribe(.ignoring)
    defer { unsubscribe() }
    record.save({ bytes("5") }, urgency: .immediate)
    record.save({ bytes("5") }, urgency: .immediate)
    #expect(store.writes == 1)
  }

  @Test func identicalBytesAreWrittenWhenTheStoreCannotBeWatched() {
    store.isWatchLive.withLock { $0 = false }
    let unsubscribe = record.subscribe(.ignoring)
    defer { unsubscribe() }
    record.save({ bytes("5") }, urgency: .immediate)
    record.save({ bytes("5") }, urgency: .immediate)
    #expect(store.writes == 2)
  }

  @Test func identicalBytesAreWrittenOnceTheWatchNoLongerSeesEveryChange() {
    let unsubscribe = record.subscribe(.ignoring)
    defer { unsubscribe() }
    record.save({ bytes("5") }, urgency: .immediate)
    store.isWatchLive.withLock { $0 = false }
    record.save({ bytes("5") }, urgency: .immediate)
    #expect(store.writes == 2)
  }

  @Test func identicalBytesAreWrittenWhenNobodyWatches() {
    record.save({ bytes("5") }, urgency: .immediate)
    record.save({ bytes("5") }, urgency: .immediate)
    #expect(store.writes == 2)
  }

  /// A throttled write reads the shared value when it is made: a load that handed the shared
  /// value the store's older bytes meanwhile would have it write those instead of the change.
  @Test func aLoadDuringWhichAChangeIsMadeLeavesTheChangeToBeWritten() {
    let scheduler = ManualWriteScheduler()
    let record = Record(
      io: store,
      machine: RecordStateMachine(interval: .seconds(1)),
      scheduler: scheduler,
      pendingWrites: PendingWrites()
    )
    record.holderAdded()
    let value = Locked("1")
    let saveValue = { (urgency: WriteUrgency) in
      record.save({ bytes(value.withLock { $0 }) }, urgency: urgency)
    }
    saveValue(.immediate)

    let isChanged = Locked(false)
    record.load(
      reading: {
        let found = try store.read()
        if !isChanged.withLock({ $0 }) {
          isChanged.withLock { $0 = true }
          value.withLock { $0 = "2" }
          saveValue(.throttled)
        }
        return found
      },
      into: { read in
        guard case .success(let snapshot) = read else { return }
        value.withLock { $0 = text(snapshot.contents) ?? "" }
      }
    )
    scheduler.advance(by: .seconds(1))

    #expect(value.withLock { $0 } == "2")
    #expect(text(store.contents.withLock { $0 }) == "2")
  }

  /// A load that finds a delivery under way waits for it, as what the delivery hands over
  /// lands after the load's value: it reads the store once more when the delivery ended, not
  /// over and over while it lasts.
  @Test func aLoadReadsTheStoreAgainOnlyOnceTheDeliveryUnderWayEnded() {
    let isDelivering = DispatchSemaphore(value: 0)
    let endDelivery = DispatchSemaphore(value: 0)
    let unsubscribe = record.subscribe(
      Record.Subscriber(
        onChange: { _, _ in
          isDelivering.signal()
          endDelivery.wait()
        },
        onRetry: { _ in }
      )
    )
    defer { unsubscribe() }
    store.contents.withLock { $0 = bytes("1") }
    Thread.detachNewThread { record.changeNoticed() }
    #expect(isDelivering.wait(timeout: .now() + 10) == .success)

    let reads = Locked(0)
    let loaded = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      record.load(
        reading: {
          reads.withLock { $0 += 1 }
          return try store.read()
        },
        into: { _ in }
      )
      loaded.signal()
    }
    // Until the load waits, or has read more than twice, which it must not.
    while record.waitingLoads == 0, reads.withLock({ $0 }) < 3 { sched_yield() }
    endDelivery.signal()
    #expect(loaded.wait(timeout: .now() + 10) == .success)
    #expect(reads.withLock { $0 } == 2)
  }

  /// A load made on the thread of the delivery under way, by what the delivery tells (a
  /// shared value created by an observer, say), cannot wait for that delivery to end: it
  /// hands over what it read beside it.
  @Test func aLoadMadeDuringADeliveryOnItsThreadDoesNotWaitForIt() {
    let loaded = DispatchSemaphore(value: 0)
    let handed = Locked<String?>(nil)
    let unsubscribe = record.subscribe(
      Record.Subscriber(
        onChange: { [record] _, _ in
          let read = record.load { text(try? $0.get().contents) }
          handed.withLock { $0 = read ?? "nothing" }
          loaded.signal()
        },
        onRetry: { _ in }
      )
    )
    defer { unsubscribe() }
    store.contents.withLock { $0 = bytes("1") }
    Thread.detachNewThread { [record] in record.changeNoticed() }
    #expect(loaded.wait(timeout: .now() + 10) == .success)
    #expect(handed.withLock { $0 } == "1")
  }

  /// A shared value being created loads before anyone can change it: what it is handed must
  /// be what the store holds once the load ends, however many writes of other shared values
  /// of the key land during its reads.
  @Test func aLoadReadsAgainWhileWritesLandDuringItsReadsAndHandsOverTheLatest() {
    let writes = Locked(0)
    let handed = record.load(
      reading: {
        let found = try store.read()
        let next = writes.withLock { count -> Int? in
          guard count < 10 else { return nil }
          count += 1
          return count
        }
        if let next { record.save({ bytes("\(next)") }, urgency: .immediate) }
        return found
      },
      into: { read in text(try? read.get().contents) }
    )
    #expect(handed == "10")
  }
  #if os(Linux)
    /// With no interval, a change is written at once, but never on the thread that changed
    /// the value, which a store on a network would hold for a round trip: only an explicit
    /// save is made on the thread that asks.
    @Test func aChangeWithNoIntervalIsNotWrittenOnTheChangingThread() {
      let store = GatedStore()
      let record = store.record()
      let changeReturned = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        record.save({ bytes("1") }, urgency: .throttled, continuation: SaveContinuation { _ in })
        changeReturned.signal()
      }
      #expect(store.writing.wait(timeout: .now() + 10) == .success)
      #expect(changeReturned.wait(timeout: .now() + 10) == .success)
      store.release.signal()
      record.flushAndWait()
      #expect(text(store.contents.withLock { $0 }) == "1")
    }

    /// A save awaited off the main thread is written on the thread that asks; a save made
    /// meanwhile waits for that write, and is then written on a thread of the system's, not on
    /// the asking thread, which returns to its caller once its own write ended.
    @Test func aSaveWaitingBehindAnotherIsNotWrittenOnTheThreadOfTheOneBefore() {
      let store = GatedStore()
      let record = store.record()
      let firstReturned = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        record.save({ bytes("1") }, urgency: .immediate, continuation: SaveContinuation { _ in })
        firstReturned.signal()
      }
      #expect(store.writing.wait(timeout: .now() + 10) == .success)
      let secondWritten = DispatchSemaphore(value: 0)
      record.save(
        { bytes("2") },
        urgency: .immediate,
        continuation: SaveContinuation { _ in secondWritten.signal() }
      )
      store.release.signal()
      #expect(store.writing.wait(timeout: .now() + 10) == .success)
      // The second write waits at the gate: the first save has returned all the same.
      #expect(firstReturned.wait(timeout: .now() + 10) == .success)
      store.release.signal()
      #expect(secondWritten.wait(timeout: .now() + 10) == .success)
      #expect(text(store.contents.withLock { $0 }) == "2")
    }
  #endif
}

/// A store in memory whose writes each wait to be released.
final class GatedStore: RecordIO {
  /// A loaded record of the store, with no interval, whose writes wait on a network.
  func record() -> Record<GatedStore> {
    let record = Record(
      io: self,
      machine: RecordStateMachine(interval: .zero),
      scheduler: ManualWriteScheduler(),
      pendingWrites: PendingWrites(),
      writeThread: .scheduled
    )
    record.holderAdded()
    record.load { _ in }
    return record
  }

  let contents = Locked<Data?>(nil)
  /// Signalled as each write starts.
  let writing = DispatchSemaphore(value: 0)
  /// Lets a write waiting at the gate go on.
  let release = DispatchSemaphore(value: 0)

  func read() throws -> StoredSnapshot<Data> {
    let bytes = contents.withLock { $0 }
    return StoredSnapshot(stamp: bytes, contents: bytes)
  }

  func write(_ contents: Data, keepingAside undecodable: Data?) throws -> Data {
    writing.signal()
    release.wait()
    self.contents.withLock { $0 = contents }
    return contents
  }

  func watch(_ onChange: @escaping @Sendable (Data?) -> Void) -> any RecordWatch {
    NoWatch()
  }

  private struct NoWatch: RecordWatch {
    var isLive: Bool { false }
    func stop() {}
  }
}

/// A store in memory: bytes stamped by themselves, a watch whose liveness a test sets.
final class FakeStore: RecordIO {
  let contents = Locked<Data?>(nil)
  let writeCount = Locked(0)
  let isWatchLive = Locked(true)

  var writes: Int { writeCount.withLock { $0 } }

  func read() throws -> StoredSnapshot<Data> {
    let bytes = contents.withLock { $0 }
    return StoredSnapshot(stamp: bytes, contents: bytes)
  }

  func write(_ contents: Data, keepingAside undecodable: Data?) throws -> Data {
    self.contents.withLock { $0 = contents }
    writeCount.withLock { $0 += 1 }
    return contents
  }

  func watch(_ onChange: @escaping @Sendable (Data?) -> Void) -> any RecordWatch {
    Watch(store: self)
  }

  private struct Watch: RecordWatch {
    let store: FakeStore
    var isLive: Bool { store.isWatchLive.withLock { $0 } }
    func stop() {}
  }
}

extension Record.Subscriber {
  /// A subscriber that ignores what it is told.
  static var ignoring: Self { Self(onChange: { _, _ in }, onRetry: { _ in }) }
}
