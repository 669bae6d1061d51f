import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

// NB: Changes made by someone else, playback, and the record's release.
extension StoredFileStateTests {
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
}
