import Foundation
import SharingCore
import Testing

@testable import SharingPersistence

/// What the store holds: unread, unreadable or undecodable stores, transactions, and the
/// record's release.
extension RecordStateMachineTests {
  struct Denied: Error {}
  struct Refused: Error {}

  @Test mutating func aStoreNeverReadIsReadBeforeItIsWritten() throws {
    record = MachineUnderTest(loaded: nil)
    #expect(names(record.save("1")) == ["registerPending", "check, then write 1"])
  }

  @Test mutating func aStoreFoundEmptyBeforeAWriteIsWritten() throws {
    record = MachineUnderTest(loaded: nil)
    let ticket = try taken(record.save("1"))
    let checked = record.machine.checkedBeforeWriting(
      ticket,
      .success(snapshot(nil)),
      refusal: Refused(),
      now: .zero
    )
    #expect(names(checked) == ["write 1"])
  }

  /// A value the program never loaded (the store could not be reached when it was loaded)
  /// wins over a change made since: it is played back, and the write fails saying so.
  @Test mutating func aValueTheProgramNeverLoadedIsPlayedBackRatherThanOverwritten() throws {
    record = MachineUnderTest(loaded: nil)
    try record.watch(finding: nil)
    let ticket = try taken(record.save("1", waited: true))
    let checked = record.run(
      record.machine.checkedBeforeWriting(
        ticket,
        .success(snapshot("7")),
        refusal: Refused(),
        now: .zero
      )
    )
    #expect(names(checked) == ["resume 1 with error", "unregisterPending", "deliver 7"])
    #expect(record.machine.isIdle)
  }

  /// Whether or not the store's writes merge into what it holds.
  @Test(arguments: [false, true])
  mutating func anUnreadableFileIsNeverOverwritten(mergesWrites: Bool) throws {
    record = MachineUnderTest(mergesWrites: mergesWrites, loaded: nil)
    record.load(.failure(Denied()))
    let ticket = try taken(record.save("1", waited: true))
    let refused = record.run(
      record.machine.checkedBeforeWriting(
        ticket,
        .failure(Denied()),
        refusal: Refused(),
        now: .zero
      )
    )
    #expect(names(refused) == ["resume 1 with error"])
    #expect(!record.machine.isIdle)
    // NB: Kept, to be written once the file can be read, or is removed.
    let again = try taken(record.machine.flushRequested(now: .seconds(1)) {})
    let removed = record.machine.checkedBeforeWriting(
      again,
      .success(snapshot(nil)),
      refusal: Refused(),
      now: .seconds(1)
    )
    #expect(names(removed) == ["write 1"])
  }

  @Test mutating func undecodableBytesAreKeptAsideBeforeTheNextWriteOnly() throws {
    record.machine.markUndecodable(bytes("oops"))
    let first = try taken(record.save("1", .immediate))
    #expect(first.keepingAside == bytes("oops"))
    _ = record.land(first)
    #expect(try taken(record.save("2", .immediate)).keepingAside == nil)
  }

  // MARK: Transactions

  @Test mutating func whatATransactionReadsAndWritesIsNotPlayedBack() throws {
    try record.watch(finding: "1")
    record.machine.transactionBegan()
    record.machine.transactionRead(.success(snapshot("2")))
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    let ended = record.machine.transactionEnded(wrote: (bytes("3"), bytes("3")))
    #expect(names(ended) == ["read"])
    #expect(names(record.read(try reading(ended), finding: "3")) == [])
  }

  @Test mutating func aTransactionWrittenDuringADeliveryIsDeliveredAfterIt() throws {
    try record.watch(finding: nil)
    _ = record.read(try reading(record.machine.changeNoticed(stamp: nil)), finding: "9")
    record.machine.transactionBegan()
    _ = record.machine.transactionEnded(wrote: (bytes("10"), bytes("10")))
    let readBack = try reading(record.machine.deliveryEnded())
    #expect(names(record.read(readBack, finding: "10")) == ["deliver 10"])
  }

  @Test mutating func aTransactionForgetsBytesKeptForAside() throws {
    record.machine.markUndecodable(bytes("oops"))
    record.machine.transactionBegan()
    _ = record.machine.transactionEnded(wrote: (bytes("1"), bytes("1")))
    #expect(try taken(record.save("2", .immediate)).keepingAside == nil)
  }

  /// The store may hold what a transaction whose answer was lost wrote, which no notice
  /// tells, as a change of the program's own: it is read back and delivered.
  @Test mutating func aTransactionOfUnknownOutcomeThatWasMadeIsReadBackAndDelivered() throws {
    try record.watch(finding: "1")
    record.machine.transactionBegan()
    record.machine.transactionRead(.success(snapshot("2")))
    let ended = record.machine.transactionEnded(wrote: nil, outcomeUnknown: true)
    #expect(names(ended) == ["read"])
    #expect(names(record.read(try reading(ended), finding: "3")) == ["deliver 3"])
  }

  /// What the transaction read under its lock never reached the shared values either.
  @Test mutating func aTransactionOfUnknownOutcomeThatWasNotMadeDeliversWhatItRead() throws {
    try record.watch(finding: "1")
    record.machine.transactionBegan()
    record.machine.transactionRead(.success(snapshot("2")))
    let ended = record.machine.transactionEnded(wrote: nil, outcomeUnknown: true)
    #expect(names(record.read(try reading(ended), finding: "2")) == ["deliver 2"])
  }

  @Test mutating func aTransactionOfUnknownOutcomeIsReadAgainUntilTheStoreCanBeRead() throws {
    record = MachineUnderTest(retriesAfterDelay: true)
    try record.watch(finding: "1")
    record.machine.transactionBegan()
    record.machine.transactionRead(.success(snapshot("1")))
    let ended = record.machine.transactionEnded(wrote: nil, outcomeUnknown: true)
    let failed = record.read(try reading(ended), finding: nil, failing: Denied())
    #expect(names(failed) == ["deliver error"])
    #expect(names(record.machine.deliveryEnded()).first?.hasPrefix("retry after") == true)
    let retried = record.machine.retryTimeCame(now: .seconds(1))
    #expect(names(record.read(try reading(retried), finding: "2")) == ["deliver 2"])
  }

  // MARK: Release

  @Test mutating func theRecordIsReleasedOnceNoHolderWriteOrSubscriberIsLeft() throws {
    let write = try taken(record.save("1", .immediate))
    #expect(names(record.machine.holderRemoved()) == [])
    _ = record.machine.subscribed()
    #expect(!names(record.land(write)).contains("release"))
    #expect(names(record.machine.unsubscribed()).last == "release")
    let released = record.machine.confirmRelease()
    let releasedAgain = record.machine.confirmRelease()
    #expect(released && !releasedAgain)
  }

  @Test mutating func aFailedWriteKeepsTheRecord() throws {
    _ = record.land(try taken(record.save("1")), failing: CancellationError())
    #expect(names(record.machine.holderRemoved()) == [])
    let released = record.machine.confirmRelease()
    #expect(!released)
  }
}
