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

  // MARK: External changes

  @Test mutating func anExternalChangeDropsThePendingWriteAndIsPlayedBack() throws {
    _ = try subscribe()
    try land(
      try #require(
        takenWrite(file.saveRequested(write("1"), immediate: false, interval: nil, now: .zero))
      )
    )
    let resumed = Locked<[String]>([])
    _ = file.saveRequested(write("2", resumed), immediate: false, interval: nil, now: .zero)
    let effects = file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)
    #expect(names(effects) == ["unregisterPending", "resume 1", "deliver"])
    #expect(file.isIdle)
    run(effects)
    #expect(resumed.withLock { $0 } == ["2"])
  }

  @Test mutating func anExternalChangeUnderAWriteInFlightIsNotPlayedBack() throws {
    _ = try subscribe()
    _ = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    let effects1 = file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)
    #expect(names(effects1) == [])
  }

  /// An older write still in flight once a newer one landed is never written: a change read
  /// then has no write of ours landing after it, and is played back.
  @Test mutating func anExternalChangeUnderAnOlderWriteThatWillBeSkippedIsPlayedBack() throws {
    _ = try subscribe()
    let older = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    try land(
      try #require(
        takenWrite(file.saveRequested(write("2"), immediate: true, interval: nil, now: .zero))
      )
    )
    let read = file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)
    #expect(names(read) == ["deliver"])
    #expect(decision(file.writeDecision(for: bytes("1"), sequence: older.sequence)) == "skip")
  }

  /// A change read under writes in flight is played back as soon as none of them can land
  /// after it (here the newer one failed, and the older one will be skipped): the file then
  /// holds the change, and so must the shared values.
  @Test mutating func anExternalChangeUnderWritesIsPlayedBackWhenNoneOfThemLandsAfterIt() throws {
    _ = try subscribe()
    let older = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    let newer = try #require(
      takenWrite(file.saveRequested(write("2"), immediate: true, interval: nil, now: .zero))
    )
    #expect(names(file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)) == [])
    let failed = file.writeFinished(
      newer,
      bytes: bytes("2"),
      wrote: false,
      result: .failure(CancellationError()),
      thread: thread
    )
    #expect(names(failed).last == "deliver")
    #expect(decision(file.writeDecision(for: bytes("1"), sequence: older.sequence)) == "skip")
    let skipped = file.writeFinished(
      older,
      bytes: bytes("1"),
      wrote: false,
      result: .success(()),
      thread: thread
    )
    #expect(names(skipped).contains("deliver") == false)
    #expect(names(file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)) == [])
  }

  /// A change read under a write in flight is not played back once that write lands after
  /// it: the shared values hold the written value, which the file holds too.
  @Test mutating func anExternalChangeUnderAWriteThatLandsAfterItIsNeverPlayedBack() throws {
    _ = try subscribe()
    let inFlight = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    #expect(names(file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)) == [])
    let landed = file.writeFinished(
      inFlight,
      bytes: bytes("1"),
      wrote: true,
      result: .success(()),
      thread: thread
    )
    #expect(names(landed).contains("deliver") == false)
  }

  @Test mutating func ourOwnWriteIsNotPlayedBack() throws {
    _ = try subscribe()
    try land(
      try #require(
        takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
      )
    )
    let effects2 = file.fileRead(.success(bytes("1")), verifying: nil, thread: thread)
    #expect(names(effects2) == [])
  }

  /// A change saved while a playback is delivered may reach the shared values before the
  /// playback does: its write is played back too, once it lands.
  @Test mutating func aChangeSavedDuringAPlaybackIsPlayedBackOnceWritten() throws {
    _ = try subscribe()
    let effects3 = file.fileRead(.success(bytes("9")), verifying: nil, thread: thread)
    #expect(names(effects3) == ["deliver"])
    let change = try #require(
      takenWrite(file.saveRequested(write("10"), immediate: true, interval: nil, now: .zero))
    )
    let landed = file.writeFinished(
      change,
      bytes: bytes("10"),
      wrote: true,
      result: .success(()),
      thread: thread
    )
    #expect(names(landed).contains("deliver") == false)
    let finished = file.playbackFinished(thread: thread)
    #expect(names(finished) == ["deliver"])
  }

  @Test func playbacksOfOtherThreadsWaitAndOnlyTheNewestIsDelivered() throws {
    var queue = PlaybackQueue()
    let playback = { (text: String) in Playback(result: .success(bytes(text)), subscribers: []) }
    guard case .deliver = queue.enqueue(playback("1"), thread: 1) else {
      Issue.record("The first playback waits")
      return
    }
    guard case .wait = queue.enqueue(playback("2"), thread: 2) else {
      Issue.record("A second thread's playback does not wait")
      return
    }
    guard case .wait = queue.enqueue(playback("3"), thread: 3) else {
      Issue.record("A third thread's playback does not wait")
      return
    }
    let steps = queue.finish(thread: 1)
    let handed = steps.map { step -> String in
      guard case .hand(_, let playback) = step else { return "deliver" }
      return playback.flatMap { try? $0.result.get() }.map { text($0) ?? "" } ?? "nothing"
    }
    #expect(handed == ["nothing", "3"])
    #expect(queue.isBusy)
    #expect(queue.finish(thread: 3).isEmpty)
    #expect(!queue.isBusy)
  }

  // MARK: Holders and release

  @Test mutating func theRecordIsReleasedOnceNoHolderWriteOrSubscriberIsLeft() throws {
    let effects4 = file.holderAdded(interval: .seconds(1))
    #expect(names(effects4) == [])
    let write = try #require(
      takenWrite(file.saveRequested(write("1"), immediate: true, interval: nil, now: .zero))
    )
    let effects5 = file.holderRemoved()
    #expect(names(effects5) == [])
    let id = subscribeID()
    let landed = file.writeFinished(
      write,
      bytes: bytes("1"),
      wrote: true,
      result: .success(()),
      thread: thread
    )
    #expect(!names(landed).contains("release"))
    let effects6 = file.unsubscribed(id)
    #expect(names(effects6).last == "release")
    let released = file.confirmRelease()
    let releasedAgain = file.confirmRelease()
    #expect(released && !releasedAgain)
  }

  @Test mutating func twoThrottlesForOneFileAreReportedOnce() {
    let effects7 = file.holderAdded(interval: .seconds(1))
    #expect(names(effects7) == [])
    let effects8 = file.holderAdded(interval: .seconds(1))
    #expect(names(effects8) == [])
    let effects9 = file.holderAdded(interval: .zero)
    #expect(names(effects9) == ["report"])
    let effects10 = file.holderAdded(interval: .zero)
    #expect(names(effects10) == [])
  }

  // MARK: Helpers

  private func write(_ value: String, _ resumed: Locked<[String]>? = nil) -> PendingWrite {
    PendingWrite(
      encode: { bytes(value) },
      continuations: resumed.map { resumed in
        [SaveContinuation(value) { _ in resumed.withLock { $0.append(value) } }]
      } ?? []
    )
  }

  private func takenWrite(_ effects: [StoredFileState.Effect]) -> WriteThrottle.Ticket? {
    for case .write(let ticket) in effects { return ticket }
    return nil
  }

  /// Lands a write as written.
  private mutating func land(_ ticket: WriteThrottle.Ticket) throws {
    run(
      file.writeFinished(
        ticket,
        bytes: try ticket.write.encode(),
        wrote: true,
        result: .success(()),
        thread: thread
      )
    )
  }

  private mutating func subscribeID() -> Int {
    let (id, _) = file.subscribed { _ in }
    return id
  }

  /// Subscribes, and returns the generation of the watch to start.
  private mutating func subscribe() throws -> Int {
    let (_, effects) = file.subscribed { _ in }
    for case .startWatching(let generation) in effects { return generation }
    throw CancellationError()
  }

  /// Resumes the continuations and flushes the effects finish, as the executor would.
  private func run(_ effects: [StoredFileState.Effect]) {
    for effect in effects {
      switch effect {
      case .resume(let continuations, let result):
        for continuation in continuations { continuation.resume(with: result) }
      case .finishFlushes(let flushes):
        for done in flushes { done() }
      default:
        break
      }
    }
  }

  private func names(_ effects: [StoredFileState.Effect]) -> [String] {
    effects.map { effect in
      switch effect {
      case .write(let ticket): "write \(text(try? ticket.write.encode()) ?? "?")"
      case .scheduleWrite(let delay): "schedule \(delay)"
      case .resume(let continuations, _): "resume \(continuations.count)"
      case .finishFlushes(let flushes): "finish \(flushes.count) flushes"
      case .registerPending: "registerPending"
      case .unregisterPending: "unregisterPending"
      case .startWatching: "startWatching"
      case .stopWatching: "stopWatching"
      case .checkFile: "checkFile"
      case .playBack(.deliver): "deliver"
      case .playBack(.wait): "wait"
      case .playBack(.hand): "hand"
      case .release: "release"
      case .report: "report"
      }
    }
  }

  private func decision(_ decision: WriteDecision?) -> String {
    switch decision {
    case .none: "check first"
    case .skip: "skip"
    case .write(let kept?): "write, keeping aside \(text(kept) ?? "")"
    case .write(nil): "write"
    case .fail: "fail"
    }
  }
}
