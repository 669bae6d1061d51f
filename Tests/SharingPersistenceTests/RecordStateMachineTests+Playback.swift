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

  /// A change noticed while an unreadable store is being delivered as an error is read once
  /// that delivery ended, as during any delivery: read meanwhile, it could be delivered first
  /// and the error after it, leaving the shared values with an error the store no longer has.
  @Test mutating func aChangeNoticedWhileAnErrorIsDeliveredIsReadOnceItEnds() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(
      names(record.read(read, finding: nil, failing: CancellationError())) == ["deliver error"]
    )
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    let again = try reading(record.machine.deliveryEnded())
    #expect(names(record.read(again, finding: "7")) == ["deliver 7"])
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
    record.loseStore()
    let reached = record.machine.becameReachable(afterLoss: true, now: .seconds(2))
    let retry = try taken(reached)
    #expect(retry.isRetry)
    #expect(names(record.land(retry)).contains("read"))
  }

  @Test mutating func afterTheStoreWasLostWhatItHoldsIsDeliveredWhateverItsStamp() throws {
    try record.watch(finding: "5")
    record.loseStore()
    let read = try reading(record.machine.becameReachable(afterLoss: true, now: .seconds(1)))
    #expect(names(record.read(read, finding: "5")) == ["deliver 5"])
  }

  @Test mutating func afterTheStoreWasLostAThrottledChangeIsWrittenBeforeItIsRead() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("6")))
    _ = record.save("7", at: .milliseconds(100))
    record.loseStore()
    let reached = record.machine.becameReachable(afterLoss: true, now: .milliseconds(200))
    #expect(names(reached) == ["write 7"])
    #expect(names(record.land(try taken(reached))).contains("read"))
  }

  @Test mutating func losingTheStoreTellsTheSubscribers() throws {
    try record.watch(finding: "5")
    let lost = record.machine.becameUnreachable(because: CancellationError())
    #expect(names(lost) == ["deliver error"])
  }

  /// A change made while the store is read again after it was lost is kept: the read holds
  /// what the program knew, which must not take the change back.
  @Test mutating func aChangeMadeWhileTheStoreIsReadAfterALossIsKept() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("6")))
    record.loseStore()
    let read = try reading(record.machine.becameReachable(afterLoss: true, now: .seconds(2)))
    #expect(names(record.save("7", at: .milliseconds(2_100))) == ["registerPending", "write 7"])
    #expect(names(record.read(read, finding: "6")) == [])
    #expect(!record.machine.isIdle)
  }

  /// A change made while a failed value is written again after the store was lost is kept.
  @Test mutating func aThrottledChangeMadeWhileTheStoreIsReadAfterALossIsKept() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("6")))
    record.loseStore()
    let read = try reading(record.machine.becameReachable(afterLoss: true, now: .milliseconds(200)))
    #expect(
      names(record.save("7", at: .milliseconds(300))) == [
        "registerPending", "schedule 0.7 seconds",
      ]
    )
    #expect(names(record.read(read, finding: "6")) == [])
    let last = try taken(record.machine.scheduledTimeCame(now: .seconds(1)))
    #expect(try last.write.encode() == bytes("7"))
  }

  @Test mutating func aChangeMadeWhileAFailedValueIsWrittenAgainIsKept() throws {
    try record.watch(finding: "5")
    _ = record.land(try taken(record.save("a")))
    record.loseStore()
    _ = record.land(try taken(record.save("b", .immediate)), failing: CancellationError())
    let retry = try taken(record.machine.becameReachable(afterLoss: true, now: .seconds(2)))
    _ = record.save("c", at: .milliseconds(2_100))
    let landed = record.land(retry, at: .milliseconds(2_200))
    let read = try reading(landed)
    #expect(names(record.read(read, finding: "b")) == [])
    let last = try taken(record.machine.scheduledTimeCame(now: .seconds(4)))
    #expect(try last.write.encode() == bytes("c"))
  }

  @Test mutating func aFailedWriteIsWrittenWhenTheStoreIsFirstReached() throws {
    record = MachineUnderTest(retriesAfterDelay: true)
    record.loseStore()
    _ = record.land(try taken(record.save("1")), failing: CancellationError())
    #expect(try taken(record.machine.becameReachable(afterLoss: false, now: .seconds(1))).isRetry)
  }

  @Test mutating func aThrottledChangeKeepsWaitingWhenTheStoreIsFirstReached() throws {
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("1")))
    _ = record.save("2", at: .milliseconds(100))
    #expect(
      names(record.machine.becameReachable(afterLoss: false, now: .milliseconds(200))) == ["read"]
    )
  }

  @Test mutating func aReadThatFailsWhileTheStoreIsReachableIsMadeAgainAfterADelay() throws {
    record = MachineUnderTest(retriesAfterDelay: true)
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(
      names(record.read(read, finding: nil, failing: CancellationError())) == ["deliver error"]
    )
    #expect(names(record.machine.deliveryEnded()) == ["retry after 0.05 seconds"])
    let again = try reading(record.machine.retryTimeCame(now: .seconds(1)))
    #expect(names(record.read(again, finding: "5")) == ["deliver 5"])
  }

  @Test mutating func aFirstLoadThatFailsWhileTheStoreIsReachableIsReadAgainAfterADelay() throws {
    record = MachineUnderTest(retriesAfterDelay: true, loaded: nil)
    _ = record.machine.subscribed()
    let outcome = record.machine.loadEnded(
      record.machine.loadStarted(),
      .failure(CancellationError()),
      isLastAttempt: false
    ) {}
    #expect(outcome == .deliver)
    #expect(names(record.machine.deliveryEnded()) == ["retry after 0.05 seconds"])
  }

  @Test mutating func aReadThatFailsWhileTheStoreIsUnreachableWaitsForItToBeReached() throws {
    record = MachineUnderTest(retriesAfterDelay: true)
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.machine.becameUnreachable(because: CancellationError())) == [])
    #expect(
      names(record.read(read, finding: nil, failing: CancellationError())) == ["deliver error"]
    )
    #expect(!names(record.machine.deliveryEnded()).contains { $0.hasPrefix("retry") })
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

  @Test mutating func aWatchStartedDuringAWriteIsVerifiedByTheReadAfterTheWrite() throws {
    let write = try taken(record.save("5", .immediate))
    guard case .startWatching(let generation)? = record.machine.subscribed().first else {
      throw TakenNothing()
    }
    #expect(names(record.machine.watchStarted(generation: generation) ?? []) == [])
    _ = record.read(try reading(record.land(write)), finding: "5")
    #expect(try taken(record.save("5", .immediate)).unchangedContents == .some(bytes("5")))
  }

  /// The read a store's first connection asks for may begin while the watch starts.
  @Test mutating func aWatchStartedDuringAReadIsVerifiedByTheReadAfterIt() throws {
    guard case .startWatching(let generation)? = record.machine.subscribed().first else {
      throw TakenNothing()
    }
    let read = try reading(record.machine.becameReachable(afterLoss: false, now: .zero))
    #expect(names(record.machine.watchStarted(generation: generation) ?? []) == [])
    _ = record.read(try reading(record.read(read, finding: nil)), finding: nil)
    #expect(record.machine.watchedContents == .some(nil))
  }

  @Test mutating func aReadUnderWayWhenTheStoreWasLostDoesNotVerifyTheWatch() throws {
    record = MachineUnderTest(retriesAfterDelay: true)
    try record.watch(finding: "5")
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    _ = record.machine.becameUnreachable(because: CancellationError())
    _ = record.read(read, finding: "5")
    #expect(record.machine.watchedContents == nil)
  }

  @Test mutating func aReadDuringWhichAChangeWasNoticedDoesNotVerifyTheWatch() throws {
    guard case .startWatching(let generation)? = record.machine.subscribed().first else {
      throw TakenNothing()
    }
    let read = try reading(record.machine.watchStarted(generation: generation) ?? [])
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    _ = record.read(read, finding: nil)
    #expect(record.machine.watchedContents == nil)
  }

  @Test mutating func aReadDuringWhichAWriteLandedDoesNotVerifyTheWatch() throws {
    let verifying = try record.subscribe()
    _ = record.land(try taken(record.save("5", .immediate)))
    _ = record.read(verifying, finding: "4")
    #expect(try taken(record.save("4", .immediate)).unchangedContents != .some(bytes("4")))
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

  @Test mutating func aReadBegunBeforeAChangeWasSavedDoesNotTakeItBack() throws {
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("1", .immediate)))
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    _ = record.save("30", at: .milliseconds(100))
    #expect(names(record.read(read, finding: "5")) == [])
    #expect(record.machine.pending != nil)
  }

  @Test mutating func aDeletionFoundByAReadBegunBeforeAChangeWasSavedWinsOnceNoticed() throws {
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("blob jr", .immediate)))
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    _ = record.save("blob sr", at: .milliseconds(100))
    #expect(names(record.read(read, finding: nil)) == [])
    #expect(record.machine.pending != nil)
    // The deletion's own notice, after the change was saved: the file, created empty again.
    let noticed = try reading(record.machine.changeNoticed(stamp: nil))
    let createdEmpty = StoredSnapshot(stamp: Data(), contents: nil)
    #expect(
      names(record.run(record.machine.readEnded(noticed, .success(createdEmpty)))) == [
        "resume 0", "unregisterPending", "deliver nothing",
      ]
    )
    #expect(record.machine.pending == nil)
  }

  @Test mutating func aFirstReadFindingNothingKeepsAChangeMadeBeforeIt() throws {
    record = MachineUnderTest(writesQuietChangesAtOnce: false, loaded: nil)
    let guarded = record.machine.subscribed()
    guard case .startWatching(let generation)? = guarded.first else { throw TakenNothing() }
    _ = record.save("12")
    let read = try reading(record.machine.watchStarted(generation: generation) ?? [])
    #expect(names(record.read(read, finding: nil)) == [])
    #expect(record.machine.pending != nil)
  }

  /// The shared values start from their default, which is what no value gives: delivered, the
  /// read could reach them after a change made meanwhile, and the write would then carry the
  /// default (a PostgreSQL probe's first change was written as 0).
  @Test mutating func aFirstReadFindingNothingDeliversNothing() throws {
    record = MachineUnderTest(writesQuietChangesAtOnce: false, loaded: nil)
    let read = try record.subscribe()
    #expect(names(record.read(read, finding: nil)) == [])
    #expect(names(record.save("12", .immediate)) == ["registerPending", "write 12"])
  }

  @Test mutating func aStoreLostDuringAReadIsReadAgainOnceItEndedSoThatTheLossIsDelivered()
    throws
  {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.machine.becameUnreachable(because: CancellationError())) == [])
    #expect(names(record.read(read, finding: nil)) == ["deliver nothing"])
    let again = try reading(record.machine.deliveryEnded())
    #expect(
      names(record.read(again, finding: nil, failing: CancellationError())) == ["deliver error"]
    )
  }
}
