import Foundation
import SharingPersistence
import Testing

@testable import SharingPostgres

/// The rules of one row, without I/O.
@Suite struct RowSyncTests {
  struct Offline: Error {}

  private func change(_ value: String) -> RowSync.Pending {
    RowSync.Pending(encode: { Data(value.utf8) }, continuations: [], isImmediate: false)
  }

  private func written(_ ticket: RowSync.Ticket?) throws -> String? {
    try ticket.map { String(decoding: try $0.pending.encode(), as: UTF8.self) }
  }

  private func required(
    _ ticket: RowSync.Ticket?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> RowSync.Ticket {
    try #require(ticket, sourceLocation: sourceLocation)
  }

  private func row(_ version: Int64) -> StoredRow {
    StoredRow(json: Data("0".utf8), version: version)
  }

  @Test func firstChangeIsTakenAtOnceLaterOnesAfterTheIntervalTheLastOneWritten() throws {
    var sync = RowSync(interval: .seconds(1))
    let enqueued = sync.enqueue(change("a"), now: .zero)
    #expect(enqueued.delay == .zero)
    let first = try required(sync.takeScheduled(now: .zero))
    let second = sync.enqueue(change("b"), now: .milliseconds(100))
    #expect(second.delay == nil)
    _ = sync.enqueue(change("c"), now: .milliseconds(200))
    let after = sync.finishWrite(first, result: .success(1), now: .milliseconds(300))
    #expect(after.scheduleAfter == .milliseconds(700))
    #expect(try written(sync.takeScheduled(now: .seconds(1))) == "c")
  }

  @Test func notificationOfTheProgramsOwnWriteIsIgnored() throws {
    var sync = RowSync(interval: .zero)
    let ticket = try required(sync.enqueueImmediate(change("a"), now: .zero))
    _ = sync.finishWrite(ticket, result: .success(4), now: .zero)
    let ownEcho = sync.notified(version: 4)
    #expect(!ownEcho)
    let newer = sync.notified(version: 5)
    #expect(newer)
  }

  @Test func notificationDuringAWriteFetchesOnceTheWriteEnds() throws {
    var sync = RowSync(interval: .zero)
    let ticket = try required(sync.enqueueImmediate(change("a"), now: .zero))
    let duringWrite = sync.notified(version: 7)
    #expect(!duringWrite)
    let afterWrite = sync.finishWrite(ticket, result: .success(8), now: .zero)
    #expect(afterWrite.fetches)
  }

  @Test func rowFetchedDuringAWriteIsFetchedAgainOnceItEnds() throws {
    var sync = RowSync(interval: .zero)
    let ticket = try required(sync.enqueueImmediate(change("a"), now: .zero))
    let duringWrite = sync.fetched(row(3))
    #expect(!duringWrite.playsBack)
    let afterWrite = sync.finishWrite(ticket, result: .success(4), now: .zero)
    #expect(afterWrite.fetches)
  }

  @Test func rowNoNewerThanTheKnownVersionIsNotPlayedBack() {
    var sync = RowSync(interval: .zero)
    let newer = sync.fetched(row(5))
    #expect(newer.playsBack)
    sync.endPlayback()
    let same = sync.fetched(row(5))
    #expect(!same.playsBack)
    let older = sync.fetched(row(4))
    #expect(!older.playsBack)
  }

  @Test func changeSavedDuringAPlaybackIsPlayedBackOnceWritten() throws {
    var sync = RowSync(interval: .zero)
    let playback = sync.fetched(row(5))
    #expect(playback.playsBack)
    let ticket = try required(sync.enqueueImmediate(change("mine"), now: .zero))
    sync.endPlayback()
    let after = sync.finishWrite(ticket, result: .success(6), now: .zero)
    #expect(after.fetches)
    let echo = sync.fetched(row(6))
    #expect(echo.playsBack)
  }

  @Test func newerRowReplacesThePendingChange() throws {
    var sync = RowSync(interval: .seconds(1))
    _ = sync.enqueue(change("a"), now: .zero)
    let newer = sync.fetched(row(2))
    #expect(newer.playsBack)
    sync.endPlayback()
    let scheduled = sync.takeScheduled(now: .seconds(1))
    #expect(scheduled == nil)
  }

  @Test func failedWriteIsWrittenAgainAfterReconnecting() throws {
    var sync = RowSync(interval: .seconds(1))
    let ticket = try required(sync.enqueueImmediate(change("a"), now: .zero))
    _ = sync.finishWrite(ticket, result: .failure(Offline()), now: .zero)
    let (retry, fetches) = sync.listening(afterLoss: true, now: .seconds(5))
    #expect(try written(retry) == "a")
    #expect(!fetches)
    let after = sync.finishWrite(try required(retry), result: .success(1), now: .seconds(5))
    #expect(after.fetches)
    let reload = sync.fetched(row(1))
    #expect(reload.playsBack)
  }

  @Test func reloadAfterAFailedRetryDoesNotTakeTheFailedValueBack() throws {
    var sync = try syncWithFailedWrite("b", over: 1)
    sync.connectionLost()
    let (retry, _) = sync.listening(afterLoss: true, now: .seconds(1))
    #expect(try required(retry).pending.isRetry)
    let after = sync.finishWrite(try required(retry), result: .failure(Offline()), now: .seconds(1))
    #expect(after.fetches)
    let reload = sync.fetched(row(1))
    #expect(!reload.playsBack)
    let noRow = sync.fetched(nil)
    #expect(noRow.playsBack, "a deleted row was written by someone else")
  }

  @Test func failedWriteIsWrittenAgainAfterAGrowingDelayWhileTheTableIsListenedTo() throws {
    var sync = try syncWithFailedWrite("b", over: 1)
    let failedAgain = { (sync: inout RowSync) throws -> Duration? in
      let retry = try self.required(sync.retryTimeCame(now: .zero))
      #expect(try self.written(retry) == "b")
      #expect(retry.pending.isRetry)
      return sync.finishWrite(retry, result: .failure(Offline()), now: .zero).retryAfter
    }
    #expect(try failedAgain(&sync) == Backoff.shortest * 2)
    #expect(try failedAgain(&sync) == Backoff.shortest * 4)
    let retry = try required(sync.retryTimeCame(now: .zero))
    let after = sync.finishWrite(retry, result: .success(2), now: .zero)
    #expect(after.retryAfter == nil)
    #expect(after.fetches)
    #expect(sync.retryTimeCame(now: .zero) == nil)
  }

  @Test func failedWriteWaitsForReconnectingWhileTheServerIsLost() throws {
    var sync = try syncWithFailedWrite("b", over: 1)
    sync.connectionLost()
    #expect(sync.retryTimeCame(now: .zero) == nil)
    let ticket = try required(sync.enqueueImmediate(change("c"), now: .zero))
    let after = sync.finishWrite(ticket, result: .failure(Offline()), now: .zero)
    #expect(after.retryAfter == nil)
    let (retry, _) = sync.listening(afterLoss: true, now: .zero)
    #expect(try written(retry) == "c")
  }

  @Test func rowWrittenBySomeoneElseSinceReplacesAFailedWrite() throws {
    var sync = try syncWithFailedWrite("b", over: 1)
    let newer = sync.fetched(row(2))
    #expect(newer.playsBack)
    sync.endPlayback()
    #expect(sync.retryTimeCame(now: .zero) == nil)
    let (retry, _) = sync.listening(afterLoss: true, now: .zero)
    #expect(retry == nil)
  }

  /// A row listened to, whose write of `value` failed after the program wrote `version`;
  /// returns it with the retry that failure scheduled due.
  private func syncWithFailedWrite(_ value: String, over version: Int64) throws -> RowSync {
    var sync = RowSync(interval: .zero)
    _ = sync.listening(afterLoss: false, now: .zero)
    let first = try required(sync.enqueueImmediate(change("a"), now: .zero))
    _ = sync.finishWrite(first, result: .success(version), now: .zero)
    let failing = try required(sync.enqueueImmediate(change(value), now: .zero))
    let after = sync.finishWrite(failing, result: .failure(Offline()), now: .zero)
    #expect(after.retryAfter == Backoff.shortest)
    return sync
  }

  @Test func reconnectingPlaysBackEvenAKnownVersion() {
    var sync = RowSync(interval: .zero)
    let playback = sync.fetched(row(5))
    #expect(playback.playsBack)
    sync.endPlayback()
    let reconnected = sync.listening(afterLoss: true, now: .zero)
    #expect(reconnected.fetches)
    let reload = sync.fetched(row(5))
    #expect(reload.playsBack)
  }

  @Test func failedWriteIsWrittenAgainWhenTheFirstConnectionComesLate() throws {
    var sync = RowSync(interval: .zero)
    let ticket = try required(sync.enqueueImmediate(change("a"), now: .zero))
    _ = sync.finishWrite(ticket, result: .failure(Offline()), now: .zero)
    let listening = sync.listening(afterLoss: false, now: .zero)
    #expect(try written(listening.ticket) == "a")
  }

  @Test func throttledChangeKeepsWaitingWhenTheFirstConnectionComes() {
    var sync = RowSync(interval: .seconds(1))
    _ = sync.enqueue(change("a"), now: .zero)
    let listening = sync.listening(afterLoss: false, now: .zero)
    #expect(listening.ticket == nil)
    #expect(listening.fetches)
  }

  @Test func failedFetchMakesTheNextOnePlayBackAKnownVersion() {
    var sync = RowSync(interval: .zero)
    let playback = sync.fetched(row(5))
    #expect(playback.playsBack)
    sync.endPlayback()
    sync.fetchFailed()
    let reload = sync.fetched(row(5))
    #expect(reload.playsBack)
  }

  @Test func rowThatCouldNotBeDecodedIsKeptAsideByTheNextWrite() throws {
    var sync = RowSync(interval: .zero)
    sync.markUndecodable()
    let ticket = try required(sync.enqueueImmediate(change("a"), now: .zero))
    #expect(ticket.keepsAside)
    _ = sync.finishWrite(ticket, result: .success(2), now: .zero)
    #expect(try required(sync.enqueueImmediate(change("b"), now: .zero)).keepsAside == false)
  }
}
