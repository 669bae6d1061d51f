import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// The rules of one file, as sequences of events, without a disk or a clock.
@Suite struct StoredFileStateTests {
  var file = StoredFileState(url: URL(fileURLWithPath: "/data/count.json"), interval: .seconds(1))
  let thread: UInt = 1

  // MARK: Throttling

  @Test mutating func firstChangeOfAQuietPeriodIsWrittenNow() throws {
    let effects = file.saveRequested(write("1"), immediate: false, interval: nil, now: .zero)
    #expect(names(effects) == ["registerPending", "write 1"])
  }

  @Test mutating func laterChangesWaitForTheIntervalAndOnlyTheLastIsKept() throws {
    let resumed = Locked<[String]>([])
    try land(
      try #require(
        takenWrite(file.saveRequested(write("1"), immediate: false, interval: nil, now: .zero))
      )
    )
    let second = file.saveRequested(
      write("2", resumed),
      immediate: false,
      interval: nil,
      now: .milliseconds(300)
    )
    #expect(names(second) == ["registerPending", "schedule 0.7 seconds"])
    let third = file.saveRequested(
      write("3", resumed),
      immediate: false,
      interval: nil,
      now: .milliseconds(400)
    )
    #expect(names(third) == ["resume 1"])
    run(third)
    #expect(resumed.withLock { $0 } == ["2"])
    let scheduled = file.scheduledTimeCame(now: .seconds(1))
    let last = try #require(takenWrite(scheduled))
    #expect(try last.write.encode() == bytes("3"))
    try land(last)
    #expect(resumed.withLock { $0 } == ["2", "3"])
  }

  @Test mutating func anOlderWriteIsNotWrittenAfterANewerOne() throws {
    let older = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    let newer = try #require(
      takenWrite(file.saveRequested(write("2"), immediate: true, interval: nil, now: .zero))
    )
    _ = file.writeFinished(
      newer,
      bytes: bytes("2"),
      wrote: true,
      result: .success(()),
      thread: thread
    )
    #expect(decision(file.writeDecision(for: bytes("1"), sequence: older.sequence)) == "skip")
  }

  @Test mutating func flushWritesThePendingValueAndWaitsForWritesInFlight() throws {
    let inFlight = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: false, interval: nil, now: .zero))
    )
    _ = file.saveRequested(write("2"), immediate: false, interval: nil, now: .zero)
    let flushed = Locked(false)
    let flush = file.flushRequested(now: .zero) { flushed.withLock { $0 = true } }
    let pending = try #require(takenWrite(flush))
    #expect(names(flush) == ["write 2"])
    run(
      file.writeFinished(
        pending,
        bytes: bytes("2"),
        wrote: true,
        result: .success(()),
        thread: thread
      )
    )
    #expect(!flushed.withLock { $0 })
    run(
      file.writeFinished(
        inFlight,
        bytes: bytes("1"),
        wrote: false,
        result: .success(()),
        thread: thread
      )
    )
    #expect(flushed.withLock { $0 })
  }

  // MARK: What the file holds

  @Test mutating func identicalBytesAreSkippedOnlyOnceAnActiveWatchWasChecked() throws {
    _ = file.fileRead(.success(bytes("5")), verifying: nil, thread: thread)
    #expect(decision(file.writeDecision(for: bytes("5"), sequence: 1)) == "write")
    let generation = try subscribe()
    #expect(decision(file.writeDecision(for: bytes("5"), sequence: 1)) == "write")
    _ = file.watchStarted(generation: generation, FileWatch(isActive: true) {})
    _ = file.fileRead(.success(bytes("5")), verifying: generation, thread: thread)
    #expect(decision(file.writeDecision(for: bytes("5"), sequence: 1)) == "skip")
  }

  @Test mutating func identicalBytesAreWrittenWhenTheFileCannotBeWatched() throws {
    let generation = try subscribe()
    _ = file.watchStarted(generation: generation, FileWatch(isActive: false) {})
    _ = file.fileRead(.success(bytes("5")), verifying: generation, thread: thread)
    #expect(decision(file.writeDecision(for: bytes("5"), sequence: 1)) == "write")
  }

  @Test mutating func identicalBytesAreWrittenOnceTheWatchNoLongerSeesEveryChange() throws {
    let isActive = Locked(true)
    let generation = try subscribe()
    _ = file.watchStarted(
      generation: generation,
      FileWatch(isActive: { isActive.withLock { $0 } }) {}
    )
    _ = file.fileRead(.success(bytes("5")), verifying: generation, thread: thread)
    #expect(decision(file.writeDecision(for: bytes("5"), sequence: 1)) == "skip")
    isActive.withLock { $0 = false }
    #expect(decision(file.writeDecision(for: bytes("5"), sequence: 1)) == "write")
  }

  @Test mutating func anUnreadableFileIsNeverOverwritten() throws {
    struct Denied: Error {}
    _ = file.fileRead(.failure(Denied()), verifying: nil, thread: thread)
    #expect(file.writeDecision(for: bytes("1"), sequence: 1) == nil)
    let (stillUnreadable, _) = file.fileCheckedBeforeWriting(
      .failure(Denied()),
      sequence: 1,
      data: bytes("1"),
      thread: thread
    )
    #expect(decision(stillUnreadable) == "fail")
    #expect(file.writeDecision(for: bytes("1"), sequence: 1) == nil)
    let (removed, _) = file.fileCheckedBeforeWriting(
      .success(nil),
      sequence: 1,
      data: bytes("1"),
      thread: thread
    )
    #expect(decision(removed) == "write")
  }

  @Test mutating func aFileReadableAgainIsPlayedBackRatherThanOverwritten() throws {
    struct Denied: Error {}
    _ = try subscribe()
    _ = file.fileRead(.failure(Denied()), verifying: nil, thread: thread)
    _ = file.playbackFinished(thread: thread)
    let (readable, effects) = file.fileCheckedBeforeWriting(
      .success(bytes("7")),
      sequence: 1,
      data: bytes("1"),
      thread: thread
    )
    #expect(decision(readable) == "fail")
    #expect(names(effects) == ["deliver"])
  }

  @Test mutating func undecodableBytesAreKeptAsideBeforeTheNextWrite() throws {
    file.undecodable(bytes("oops"))
    let ticket = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    #expect(
      decision(file.writeDecision(for: bytes("1"), sequence: ticket.sequence))
        == "write, keeping aside oops"
    )
    _ = file.writeFinished(
      ticket,
      bytes: bytes("1"),
      wrote: true,
      result: .success(()),
      thread: thread
    )
    #expect(decision(file.writeDecision(for: bytes("2"), sequence: 2)) == "write")
  }
}
