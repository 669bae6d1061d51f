import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// The rules of one user defaults store, as sequences of events: no store, no clock.
@Suite struct UserDefaultsStoreStateTests {
  let interval = UserDefaultsStoreState.syncInterval
  let resumed = Locked<[String]>([])

  private func save(_ name: String) -> SaveContinuation {
    SaveContinuation(name) { [resumed] _ in resumed.withLock { $0.append(name) } }
  }

  private func resume(_ step: UserDefaultsStoreState.SaveStep) -> Duration?? {
    switch step {
    case .synchronize(let waiting):
      for continuation in waiting { continuation.resume() }
      return nil
    case .wait(let delay):
      return .some(delay)
    }
  }

  @Test func firstChangeOfAQuietPeriodIsSynchronizedAtOnce() {
    var state = UserDefaultsStoreState()
    #expect(resume(state.changed(saving: save("a"), urgency: .throttled, now: .seconds(10))) == nil)
    #expect(resumed.withLock { $0 } == ["a"])
    #expect(!state.hasUnsavedChanges)
  }

  @Test func laterChangesWaitForTheIntervalAndAreSavedTogether() {
    var state = UserDefaultsStoreState()
    _ = resume(state.changed(saving: save("a"), urgency: .throttled, now: .zero))
    let third = interval / 3
    #expect(
      resume(state.changed(saving: save("b"), urgency: .throttled, now: third))
        == .some(interval - third)
    )
    #expect(resume(state.changed(saving: save("c"), urgency: .throttled, now: third)) == .some(nil))
    #expect(resumed.withLock { $0 } == ["a"])
    for continuation in state.takeScheduledSync(now: interval) ?? [] { continuation.resume() }
    #expect(resumed.withLock { $0 } == ["a", "b", "c"])
    #expect(state.takeScheduledSync(now: interval * 2) == nil)
  }

  @Test func explicitSaveSynchronizesAtOnceWithTheWaitingSaves() {
    var state = UserDefaultsStoreState()
    _ = resume(state.changed(saving: save("a"), urgency: .throttled, now: .zero))
    _ = resume(state.changed(saving: save("b"), urgency: .throttled, now: .zero))
    #expect(resume(state.changed(saving: save("c"), urgency: .immediate, now: .zero)) == nil)
    #expect(resumed.withLock { $0 } == ["a", "b", "c"])
    #expect(state.takeScheduledSync(now: interval) == nil)
  }

  @Test func changesNobodyWaitsForAreWrittenWithinTheInterval() {
    var state = UserDefaultsStoreState()
    #expect(resume(state.changed(saving: nil, urgency: .background, now: .zero)) == .some(interval))
    #expect(state.hasUnsavedChanges)
    #expect(state.takeScheduledSync(now: interval)?.isEmpty == true)
    #expect(!state.hasUnsavedChanges)
    #expect(state.isIdle)
  }

  @Test func failedSynchronisationLeavesTheChangesUnsaved() {
    var state = UserDefaultsStoreState()
    _ = resume(state.changed(saving: save("a"), urgency: .throttled, now: .zero))
    state.didSynchronize(succeeded: false)
    #expect(state.hasUnsavedChanges)
    #expect(state.takeUnsaved(now: .seconds(1))?.isEmpty == true)
  }

  @Test func aWriteIsPlayedBackToOtherSubscriptionsOnlyWhenTheValueChanged() {
    var state = UserDefaultsStoreState()
    let (first, second) = (Writer(), Writer())
    state.subscribe(0, subscription("count", by: first, seen: .integer(0), calling: "first"))
    state.subscribe(1, subscription("count", by: second, seen: .integer(0), calling: "second"))
    state.subscribe(2, subscription("other", by: second, seen: .missing, calling: "other"))
    call(state.didStore(.integer(1), forKey: "count", by: ObjectIdentifier(first)))
    #expect(resumed.withLock { $0 } == ["second"])
    call(state.didStore(.integer(1), forKey: "count", by: nil))
    #expect(resumed.withLock { $0 } == ["second"])
    call(state.didStore(.integer(2), forKey: "count", by: nil))
    #expect(resumed.withLock { $0 } == ["second", "first", "second"])
  }

  @Test func aReloadTellsTheSubscriptionsWhoseValueChanged() {
    var state = UserDefaultsStoreState()
    let writer = Writer()
    state.subscribe(0, subscription("a", by: writer, seen: .integer(0), calling: "a"))
    state.subscribe(1, subscription("b", by: writer, seen: .integer(0), calling: "b"))
    call(state.didReload([0: .integer(0), 1: .integer(5)], tellingAll: false))
    #expect(resumed.withLock { $0 } == ["b"])
    call(state.didReload([0: .integer(0), 1: .integer(5)], tellingAll: true))
    #expect(resumed.withLock { $0 } == ["b", "a", "b"])
  }

  @Test func aStoreWhoseFileCouldNotBeKeptAsideIsNeverWritten() {
    var state = UserDefaultsStoreState()
    state.fileError = .notKept(path: "/s.plist", reason: "disk full")
    #expect(state.blocksWrites)
    #expect(!state.isIdle)
    state.fileError = .unreadableFile(path: "/s.plist", keptAt: "/s.plist.corrupt-1")
    #expect(!state.blocksWrites)
  }

  // MARK: Noticing changes

  /// A file modified at `seconds` (plus `nanoseconds`), of `size` bytes.
  private func stamp(
    at seconds: Int64,
    _ nanoseconds: Int64 = 500_000_000,
    size: Int64 = 100
  ) -> FileStamp {
    FileStamp(device: 1, inode: 2, size: size, modified: seconds, modifiedNanoseconds: nanoseconds)
  }

  @Test func theFileIsReadOnceWhenTheStoreIsFirstUsed() {
    var state = UserDefaultsStoreState()
    let settled = stamp(at: 100)
    #expect(state.mustReload(stamp: settled))
    state.didReadFile(stamp: settled, stampedAfter: .seconds(200))
    #expect(!state.mustReload(stamp: settled))
    #expect(state.mustReload(stamp: stamp(at: 150)))
    #expect(state.mustReload(stamp: nil))
  }

  /// Another process writing between this process's write and the stamp taken after it
  /// leaves a stamp that belongs to a version never read: the file is read after each write.
  @Test func aWriteOfAnotherProcessRightAfterOursIsRead() {
    var state = UserDefaultsStoreState()
    let before = stamp(at: 100)
    state.didReadFile(stamp: before, stampedAfter: .seconds(200))
    state.didWriteFile()
    let afterOurs = stamp(at: 201)
    #expect(state.mustReload(stamp: afterOurs))
    #expect(state.mustReload(stamp: before))
    state.didReadFile(stamp: afterOurs, stampedAfter: .seconds(300))
    #expect(!state.mustReload(stamp: afterOurs))
  }

  /// Two writes of the same size within one tick of the file system's clock leave the same
  /// stamp: a file modified that recently is read again until its stamp is older than a
  /// tick.
  @Test func aWriteWithinTheSameClockTickAsTheLastReadIsRead() {
    var state = UserDefaultsStoreState()
    let recent = stamp(at: 100)
    state.didReadFile(stamp: recent, stampedAfter: recent.modifiedAt + .milliseconds(3))
    #expect(state.mustReload(stamp: recent))
    state.didReadFile(stamp: recent, stampedAfter: recent.modifiedAt + .milliseconds(49))
    #expect(state.mustReload(stamp: recent))
    state.didReadFile(stamp: recent, stampedAfter: recent.modifiedAt + .milliseconds(50))
    #expect(!state.mustReload(stamp: recent))
  }

  @Test func aFileSystemKeepingWholeSecondsIsTrustedTwoSecondsAfterAWrite() {
    var state = UserDefaultsStoreState()
    let recent = stamp(at: 100, 0)
    state.didReadFile(stamp: recent, stampedAfter: .seconds(101))
    #expect(state.mustReload(stamp: recent))
    state.didReadFile(stamp: recent, stampedAfter: .seconds(102))
    #expect(!state.mustReload(stamp: recent))
  }

  @Test func aModificationTimeFarInTheFutureIsNotWaitedFor() {
    var state = UserDefaultsStoreState()
    let future = stamp(at: 4_000)
    state.didReadFile(stamp: future, stampedAfter: .seconds(100))
    #expect(!state.mustReload(stamp: future))
    state.didReadFile(stamp: future, stampedAfter: future.modifiedAt - .milliseconds(10))
    #expect(state.mustReload(stamp: future))
  }

  @Test func anUnreadableVersionOfTheFileIsCheckedOnce() {
    var state = UserDefaultsStoreState()
    let unreadable = stamp(at: 100, size: 7)
    state.didFindUnreadable(stamp: unreadable)
    #expect(!state.mustReload(stamp: unreadable))
    #expect(state.mustReload(stamp: stamp(at: 100, size: 9)))
  }

  private final class Writer: Sendable {}

  private func subscription(
    _ key: String,
    by writer: Writer,
    seen: StoredDefaultsValue,
    calling name: String
  ) -> UserDefaultsStoreState.Subscription {
    .init(key: key, writer: ObjectIdentifier(writer), lastSeen: seen) { [resumed] in
      resumed.withLock { $0.append(name) }
    }
  }

  private func call(_ handlers: [@Sendable () -> Void]) {
    for handler in handlers { handler() }
  }
}
