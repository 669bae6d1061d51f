import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Changes made by someone else: when they are read, and when they reach the shared values.
extension RecordStateMachineTests {
  @Test mutating func aChangeOfSomeoneElseIsReadThenDelivered() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    #expect(names(record.machine.deliveryEnded()) == [])
  }

  @Test mutating func aChangeNoticedDuringAReadIsReadOnceItEnds() throws {
    try record.watch(finding: nil)
    let first = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    _ = record.read(first, finding: "8")
    #expect(names(record.machine.deliveryEnded()) == ["read"])
  }

  @Test mutating func anExternalChangeDropsThePendingWriteAndIsDelivered() throws {
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("1", waited: true)))
    _ = record.save("2", at: .milliseconds(100), waited: true)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(
      names(record.read(read, finding: "9")) == ["resume 1", "unregisterPending", "deliver 9"]
    )
    #expect(record.machine.isIdle)
    #expect(record.resumed.withLock { $0 } == ["1", "2"])
  }

  @Test mutating func aChangeNoticedDuringAWriteIsReadOnceTheWriteLanded() throws {
    try record.watch(finding: nil)
    let write = try taken(record.save("1", .immediate))
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    #expect(names(record.land(write)).contains("read"))
  }

  @Test mutating func aReadThatAWriteMayLandAfterIsNotDeliveredButMadeAgain() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    let write = try taken(record.save("1", .immediate))
    #expect(names(record.read(read, finding: "9")) == [])
    let landed = record.land(write)
    #expect(names(landed).contains("read"))
    // NB: Read again after the write: the file holds the write, which is not played back.
    #expect(names(record.read(try reading(landed), finding: "1")) == [])
  }

  @Test mutating func ourOwnWriteIsNotPlayedBack() throws {
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("1", .immediate)))
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "1")) == [])
  }

  @Test mutating func aNoticeThatGivesTheKnownStampIsNotRead() throws {
    try record.watch(finding: "5")
    #expect(names(record.machine.changeNoticed(stamp: bytes("5"))) == [])
    #expect(names(record.machine.changeNoticed(stamp: bytes("6"))) == ["read"])
  }

  /// A change saved while a delivery is under way may reach the shared values before the
  /// delivered value does: its write is read back and delivered too, once it landed.
  @Test mutating func aChangeSavedDuringADeliveryIsDeliveredOnceWritten() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    let change = try taken(record.save("10", .immediate))
    #expect(names(record.land(change)) == ["unregisterPending"])
    let readBack = try reading(record.machine.deliveryEnded())
    #expect(names(record.read(readBack, finding: "10")) == ["deliver 10"])
  }

  @Test mutating func anUnreadableFileIsDeliveredAsAnErrorOnce() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(
      names(record.read(read, finding: nil, failing: CancellationError())) == ["deliver error"]
    )
    _ = record.machine.deliveryEnded()
    let again = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(again, finding: nil, failing: CancellationError())) == [])
    let readable = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(readable, finding: nil)) == ["deliver nothing"])
  }

  @Test mutating func aReadDoesNotTakeAFailedWriteBackUnlessSomeoneElseChangedTheStore() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("6")), failing: CancellationError())
    let unchanged = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(unchanged, finding: "5")) == [])
    let changed = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(changed, finding: "7")) == ["unregisterPending", "deliver 7"])
    #expect(record.machine.isIdle)
  }

  @Test mutating func reachingTheStoreAgainWritesTheFailedValueFirst() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("6")), failing: CancellationError())
    record.machine.becameUnreachable()
    let reached = record.machine.becameReachable(afterLoss: true, now: .seconds(2))
    let retry = try taken(reached)
    #expect(retry.isRetry)
    #expect(names(record.land(retry)).contains("read"))
  }

  @Test mutating func afterTheStoreWasLostWhatItHoldsIsDeliveredWhateverItsStamp() throws {
    try record.watch(finding: "5")
    record.machine.becameUnreachable()
    let read = try reading(record.machine.becameReachable(afterLoss: true, now: .seconds(1)))
    #expect(names(record.read(read, finding: "5")) == ["deliver 5"])
  }

  @Test mutating func afterTheStoreWasLostAThrottledChangeIsWrittenBeforeItIsRead() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("6")))
    _ = record.save("7", at: .milliseconds(100))
    record.machine.becameUnreachable()
    let reached = record.machine.becameReachable(afterLoss: true, now: .milliseconds(200))
    #expect(names(reached) == ["write 7"])
    #expect(names(record.land(try taken(reached))).contains("read"))
  }

  // MARK: Watching

  @Test mutating func identicalBytesAreSkippedOnlyOnceTheWatchWasVerified() throws {
    let verifying = try record.subscribe()
    #expect(try taken(record.save("5", .immediate)).unchangedContents == nil)
    record = MachineUnderTest()
    _ = record.read(try record.subscribe(), finding: "5")
    #expect(try taken(record.save("5", .immediate)).unchangedContents == .some(bytes("5")))
    _ = verifying
  }

  @Test mutating func identicalBytesAreWrittenOnceNobodyWatchesTheFile() throws {
    try record.watch(finding: "5")
    _ = record.machine.unsubscribed()
    #expect(try taken(record.save("5", .immediate)).unchangedContents == nil)
  }

  @Test mutating func aWatchStartedAfterItWasNoLongerWantedIsStopped() {
    guard case .startWatching(let generation)? = record.machine.subscribed().first else {
      Issue.record("Not watched")
      return
    }
    #expect(names(record.machine.unsubscribed()) == ["stopWatching"])
    #expect(record.machine.watchStarted(generation: generation) == nil)
  }
}
