import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Loads: what they read reaches the shared values as a delivery does, and is read again
/// while something newer may reach them.
extension RecordStateMachineTests {
  @Test mutating func aLoadIsHandedToTheSharedValuesAndKnown() throws {
    record = MachineUnderTest(loaded: nil)
    let isHandedOver = record.load(.success(snapshot("4")))
    #expect(isHandedOver)
    try record.watch(finding: "4")
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "4")) == [])
  }

  @Test mutating func aLoadThatReadBeforeATransactionEndedReadsAgain() {
    let load = record.machine.loadStarted()
    record.machine.transactionBegan()
    _ = record.machine.transactionEnded(wrote: (Data("2".utf8), Data("2".utf8)))
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false) {}
    #expect(outcome == .readAgain)
  }

  @Test mutating func aLoadThatReadBeforeAWriteLandedReadsAgain() throws {
    let write = try taken(record.save("2", .immediate))
    let load = record.machine.loadStarted()
    _ = record.land(write)
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false) {}
    #expect(outcome == .readAgain)
  }

  @Test mutating func aLoadThatReadBeforeTheStoreWasLostReadsAgain() throws {
    try record.watch(finding: nil)
    let load = record.machine.loadStarted()
    record.loseStore()
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false) {}
    #expect(outcome == .readAgain)
  }

  @Test mutating func aLoadEndingDuringADeliveryWaitsForIt() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    let outcome = record.machine.loadEnded(load, .success(snapshot("8")), isLastAttempt: false) {}
    #expect(outcome == .waitForOthers)
  }

  @Test mutating func aLoadEndingDuringAReadWaitsForItEvenOnItsLastAttempt() throws {
    try record.watch(finding: nil)
    _ = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    let outcome = record.machine.loadEnded(load, .success(snapshot("8")), isLastAttempt: true) {}
    #expect(outcome == .waitForOthers)
  }

  @Test mutating func aLoadEndingDuringAWriteOnItsLastAttemptIsDeliveredAndTheStoreReadAgain()
    throws
  {
    try record.watch(finding: nil)
    let write = try taken(record.save("2", .immediate))
    let load = record.machine.loadStarted()
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: true) {}
    #expect(outcome == .deliver)
    #expect(!names(record.land(write)).contains("read"))
    #expect(names(record.machine.deliveryEnded()) == ["read"])
  }

  @Test mutating func aLoadHandedOverAfterTheStoreChangedIsDeliveredBeforeTheStoreIsReadAgain()
    throws
  {
    try record.watch(finding: "1")
    let load = record.machine.loadStarted()
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "2")) == ["deliver 2"])
    _ = record.machine.deliveryEnded()
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: true) {}
    // What the load read is older than what was delivered: it is handed over first, and the
    // read that brings the store's value back comes after its delivery, not before.
    #expect(outcome == .deliver)
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    let again = try reading(record.machine.deliveryEnded())
    #expect(names(record.read(again, finding: "2")) == ["deliver 2"])
  }

  @Test mutating func aLoadDuringWhichAChangeWasMadeReadsAgain() throws {
    _ = record.land(try taken(record.save("1", .immediate)))
    let load = record.machine.loadStarted()
    #expect(names(record.save("2")).last == "schedule 1.0 seconds")
    // The shared values hold "2", which a throttled write reads when it is made: handing
    // them "1" would write "1" in its place.
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false) {}
    #expect(outcome == .readAgain)
  }

  @Test mutating func aLoadThatFailsIsHandedOverAtOnce() throws {
    try record.watch(finding: nil)
    _ = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    let outcome = record.machine.loadEnded(load, .failure(Denied()), isLastAttempt: false) {}
    #expect(outcome == .deliverBesideAnother)
  }

  @Test mutating func aLoadWaitingForADeliveryIsResumedOnceItEnded() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    let outcome = record.machine.loadEnded(load, .success(snapshot("9")), isLastAttempt: false) {}
    #expect(outcome == .waitForOthers)
    #expect(names(record.machine.deliveryEnded()) == ["resume 1 loads"])
  }

  /// A transaction whose outcome is unknown asks for a read, which delivers: the load waits
  /// for both, and is resumed once, after the delivery.
  @Test mutating func aLoadWaitingForATransactionIsResumedOnlyOnceWhatItAskedForEnded() throws {
    try record.watch(finding: nil)
    record.machine.transactionBegan()
    let load = record.machine.loadStarted()
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false) {}
    #expect(outcome == .waitForOthers)
    let ended = record.machine.transactionEnded(wrote: nil, outcomeUnknown: true)
    #expect(!names(ended).contains("resume 1 loads"))
    #expect(names(record.read(try reading(ended), finding: "2")) == ["deliver 2"])
    #expect(names(record.machine.deliveryEnded()) == ["resume 1 loads"])
    #expect(names(record.machine.deliveryEnded()).isEmpty)
  }

  @Test mutating func aLoadWaitsForATransactionUnderWayEvenOnItsLastAttempt() {
    record.machine.transactionBegan()
    let load = record.machine.loadStarted()
    let outcome = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: true) {}
    #expect(outcome == .waitForOthers)
  }

}
