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
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false)
    #expect(ended.outcome == .readAgain)
  }

  @Test mutating func aLoadThatReadBeforeAWriteLandedReadsAgain() throws {
    let write = try taken(record.save("2", .immediate))
    let load = record.machine.loadStarted()
    _ = record.land(write)
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false)
    #expect(ended.outcome == .readAgain)
  }

  @Test mutating func aLoadEndingDuringADeliveryReadsAgain() throws {
    try record.watch(finding: nil)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    let ended = record.machine.loadEnded(load, .success(snapshot("8")), isLastAttempt: false)
    #expect(ended.outcome == .readAgain)
  }

  @Test mutating func aLoadEndingDuringAReadReadsAgainEvenOnItsLastAttempt() throws {
    try record.watch(finding: nil)
    _ = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    let ended = record.machine.loadEnded(load, .success(snapshot("8")), isLastAttempt: true)
    #expect(ended.outcome == .readAgain)
  }

  @Test mutating func aLoadEndingDuringAWriteOnItsLastAttemptKeepsTheValueAndReadsAfterTheWrite()
    throws
  {
    try record.watch(finding: nil)
    let write = try taken(record.save("2", .immediate))
    let load = record.machine.loadStarted()
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: true)
    // The shared values hold the change being written, newer than what the load read: they
    // keep it, and the store is read once the write landed.
    #expect(ended.outcome == .keep)
    #expect(names(ended.actions) == [])
    #expect(names(record.land(write)).contains("read"))
  }

  @Test mutating func aLoadHandedOverAfterADeliveryIsDeliveredBeforeTheStoreIsReadAgain()
    throws
  {
    try record.watch(finding: "1")
    let load = record.machine.loadStarted()
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "2")) == ["deliver 2"])
    _ = record.machine.deliveryEnded()
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: true)
    // What the load read is older than what was delivered: it is handed over first, and the
    // read that brings the store's value back comes after its delivery, not before.
    #expect(ended.outcome == .deliver)
    #expect(names(ended.actions) == [])
    #expect(names(record.machine.changeNoticed(stamp: nil)) == [])
    #expect(names(record.machine.deliveryEnded()) == ["read"])
  }

  @Test mutating func aLoadEndingWhileAChangeWaitsForTheThrottleKeepsTheChange() throws {
    _ = record.land(try taken(record.save("1", .immediate)))
    #expect(names(record.save("2")).last == "schedule 1.0 seconds")
    let load = record.machine.loadStarted()
    // The shared values hold "2", which a throttled write reads when it is made: handing
    // them "1" would write "1" in its place.
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false)
    #expect(ended.outcome == .keep)
  }

  @Test mutating func aLoadDuringWhichAChangeWasMadeKeepsTheChange() throws {
    _ = record.land(try taken(record.save("1", .immediate)))
    let load = record.machine.loadStarted()
    #expect(names(record.save("2")).last == "schedule 1.0 seconds")
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: false)
    #expect(ended.outcome == .keep)
  }

  @Test mutating func aLoadThatFailsIsHandedOverAtOnce() throws {
    try record.watch(finding: nil)
    _ = try reading(record.machine.changeNoticed(stamp: nil))
    let load = record.machine.loadStarted()
    let ended = record.machine.loadEnded(load, .failure(Denied()), isLastAttempt: false)
    #expect(ended.outcome == .deliverBesideAnother)
  }

  @Test mutating func aLoadReadsAgainWhileATransactionIsUnderWayEvenOnItsLastAttempt() {
    record.machine.transactionBegan()
    let load = record.machine.loadStarted()
    let ended = record.machine.loadEnded(load, .success(snapshot("1")), isLastAttempt: true)
    #expect(ended.outcome == .readAgain)
  }

}
