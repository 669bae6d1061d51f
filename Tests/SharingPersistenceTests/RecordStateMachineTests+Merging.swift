import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Stores whose writes merge the program's changes into what they hold, as a user defaults
/// store writes only the keys the program changed.
extension RecordStateMachineTests {
  @Test mutating func aPendingChangeOfAMergingStoreOutlivesSomeoneElsesChange() throws {
    record = MachineUnderTest(mergesWrites: true)
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("1", waited: true)))
    _ = record.save("2", at: .milliseconds(100), waited: true)
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    #expect(names(record.machine.deliveryEnded()) == [])
    #expect(!record.machine.isIdle)
    let write = try taken(record.machine.scheduledTimeCame(now: .seconds(1)))
    #expect(try write.write.encode() == bytes("2"))
    _ = record.land(write, at: .seconds(1))
    #expect(record.resumed.withLock { $0 } == ["1", "2"])
  }

  @Test mutating func aFailedChangeOfAMergingStoreOutlivesSomeoneElsesChange() throws {
    record = MachineUnderTest(mergesWrites: true)
    try record.watch(finding: nil)
    _ = record.land(try taken(record.save("1")), failing: Denied())
    let read = try reading(record.machine.changeNoticed(stamp: nil))
    #expect(names(record.read(read, finding: "9")) == ["deliver 9"])
    _ = record.machine.deliveryEnded()
    let again = try taken(record.machine.flushRequested(now: .seconds(1)) {})
    #expect(try again.write.encode() == bytes("1"))
  }

  @Test mutating func aMergingStoreIsWrittenOverAValueTheProgramNeverLoaded() throws {
    record = MachineUnderTest(mergesWrites: true, loaded: nil)
    let ticket = try taken(record.save("1"))
    let checked = record.machine.checkedBeforeWriting(
      ticket,
      .success(snapshot("7")),
      refusal: Refused(),
      now: .zero
    )
    #expect(names(checked) == ["write 1"])
  }
}
