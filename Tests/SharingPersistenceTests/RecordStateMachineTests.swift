import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// The write rules every persisted record follows — a file, a row, a user defaults store —
/// as sequences of events, without a store or a clock.
@Suite struct RecordStateMachineTests {
  var record = MachineUnderTest()

  // MARK: Throttle

  @Test mutating func firstChangeOfAQuietPeriodIsWrittenNow() {
    #expect(names(record.save("1")) == ["registerPending", "write 1"])
  }

  @Test mutating func laterChangesWaitForTheIntervalAndOnlyTheLastIsWritten() throws {
    _ = record.land(try taken(record.save("1", waited: true)))
    #expect(
      names(record.save("2", at: .milliseconds(300), waited: true))
        == ["registerPending", "schedule 0.7 seconds"]
    )
    #expect(names(record.save("3", at: .milliseconds(400), waited: true)) == [])
    let last = try taken(record.run(record.machine.scheduledTimeCame(now: .seconds(1))))
    #expect(try last.write.encode() == bytes("3"))
    _ = record.land(last, at: .seconds(1))
    // NB: The replaced value's save waited for the value that replaced it.
    #expect(record.resumed.withLock { $0 } == ["1", "2", "3"])
  }

  @Test mutating func aChangeNobodyWaitsForWaitsForTheIntervalEvenInAQuietPeriod() {
    #expect(names(record.save("1", .background)) == ["registerPending", "schedule 1.0 seconds"])
  }

  @Test mutating func anExplicitSaveIsWrittenAtOnceWithThePendingChangesSaves() throws {
    _ = record.land(try taken(record.save("1")))
    _ = record.save("2", at: .milliseconds(100), waited: true)
    let save = try taken(record.save("3", .immediate, at: .milliseconds(200), waited: true))
    #expect(save.write.continuations.count == 2)
    #expect(try save.write.encode() == bytes("3"))
    _ = record.land(save)
  }

  @Test mutating func aZeroIntervalWritesEveryChangeThrough() throws {
    record = MachineUnderTest(interval: .zero)
    _ = record.land(try taken(record.save("1")))
    #expect(names(record.save("2")) == ["registerPending", "write 2"])
  }

  @Test mutating func aChangeMadeDuringAWriteWaitsForItsKeysIntervalAfterIt() throws {
    let first = try taken(record.save("1"))
    let write = PendingWrite(encode: { bytes("2") }, continuations: [])
    _ = record.machine.saved(
      write,
      urgency: .throttled,
      interval: .seconds(5),
      now: .milliseconds(100)
    )
    #expect(names(record.land(first, at: .milliseconds(200))) == ["schedule 4.8 seconds"])
  }

  // MARK: Order

  @Test mutating func aChangeDuringAWriteIsWrittenAfterIt() throws {
    let first = try taken(record.save("1", .immediate))
    #expect(names(record.save("2", .immediate)) == [])
    let landed = record.land(first)
    #expect(names(landed).contains("write 2"))
    #expect(try taken(landed).sequence > first.sequence)
  }

  @Test mutating func aThrottledChangeDuringAWriteIsScheduledOnceItEnds() throws {
    let first = try taken(record.save("1"))
    #expect(names(record.save("2", at: .milliseconds(100))) == [])
    #expect(names(record.land(first, at: .milliseconds(200))) == ["schedule 0.8 seconds"])
  }

  // MARK: Flushes

  @Test mutating func aFlushWritesThePendingValueAndEndsOnceItLanded() throws {
    let inFlight = try taken(record.save("1"))
    _ = record.save("2", at: .milliseconds(100))
    let flushed = Locked(false)
    #expect(
      names(record.machine.flushRequested(now: .zero) { flushed.withLock { $0 = true } }) == []
    )
    let pending = try taken(record.land(inFlight))
    #expect(!flushed.withLock { $0 })
    #expect(names(record.land(pending)).contains("finish 1 flushes"))
    #expect(flushed.withLock { $0 })
  }

  @Test mutating func aFlushWithNothingToWriteEndsAtOnce() {
    #expect(names(record.machine.flushRequested(now: .zero) {}) == ["finish 1 flushes"])
  }

  // MARK: Retry

  @Test mutating func aFailedWriteIsWrittenAgainByTheNextFlush() throws {
    let failed = record.land(
      try taken(record.save("1", waited: true)),
      failing: CancellationError()
    )
    #expect(names(failed) == ["resume 1 with error"])
    #expect(!record.machine.isIdle)
    let again = try taken(record.run(record.machine.flushRequested(now: .seconds(5)) {}))
    #expect(again.isRetry)
    #expect(names(record.land(again)) == ["report retry", "finish 1 flushes", "unregisterPending"])
    #expect(record.machine.isIdle)
  }

  @Test mutating func aFailedWriteIsWrittenAgainAfterAGrowingDelayWhileTheStoreIsReachable() throws
  {
    record = MachineUnderTest(retriesAfterDelay: true)
    let failing = record.land(try taken(record.save("1")), failing: CancellationError())
    #expect(names(failing).contains("retry after 0.05 seconds"))
    let retry = try taken(record.machine.retryTimeCame(now: .seconds(1)))
    let failingAgain = record.land(retry, failing: CancellationError())
    #expect(names(failingAgain).contains("retry after 0.1 seconds"))
  }

  @Test mutating func aFailedWriteWaitsForTheStoreWhileItCannotBeReached() throws {
    record = MachineUnderTest(retriesAfterDelay: true)
    record.loseStore()
    let failing = record.land(try taken(record.save("1")), failing: CancellationError())
    #expect(!names(failing).contains { $0.hasPrefix("retry") })
    #expect(names(record.machine.retryTimeCame(now: .seconds(1))) == [])
    let reached = record.machine.becameReachable(afterLoss: true, now: .seconds(2))
    #expect(try taken(reached).isRetry)
  }

  @Test mutating func aNewerChangeReplacesAFailedOne() throws {
    _ = record.land(try taken(record.save("1")), failing: CancellationError())
    let newer = try taken(record.save("2", .immediate, at: .seconds(2)))
    #expect(names(record.land(newer)) == ["unregisterPending"])
    #expect(record.machine.isIdle)
  }
}
