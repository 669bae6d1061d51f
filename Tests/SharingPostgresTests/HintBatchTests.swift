import Foundation
import PostgresTestSupport
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPostgres

/// A process writing often notifies at most once per interval, every write it made included.
@Suite struct HintBatchTests {
  @Test func firstWriteNotifiesAtOnceLaterOnesOfTheIntervalTogether() {
    var batch = HintBatch()
    let start = ContinuousClock.now
    let atOnce = batch.claimAtOnce(now: start)
    let withinTheInterval = batch.claimAtOnce(now: start + .milliseconds(1))
    let delay = batch.add("a", version: 7, now: start + .milliseconds(1))
    let whileWaiting = batch.claimAtOnce(now: start + .milliseconds(30))
    let again = batch.add("a", version: 9, now: start + .milliseconds(2))
    let other = batch.add("b", version: 8, now: start + .milliseconds(3))
    let taken = batch.take(now: start + .milliseconds(10))
    let rightAfter = batch.claimAtOnce(now: start + .milliseconds(11))
    let intervalLater = batch.claimAtOnce(now: start + .milliseconds(20))
    #expect(atOnce && !withinTheInterval && !whileWaiting && !rightAfter && intervalLater)
    #expect(delay == .milliseconds(9))
    #expect(again == nil && other == nil)
    #expect(taken == ["a": 9, "b": 8])
  }

  @Test func burstOfWritesIsPlayedBackByAnotherProcess() async throws {
    let table = try await TestTable()
    let keys = (0..<5).map { "key-\($0)" }
    let readers = table.withDatabase { keys.map { Shared(wrappedValue: 0, .postgres($0)) } }
    await eventually("the first loads") { readers.allSatisfy { !$0.isLoading } }
    let writer = table.database()
    let written: [PostgresKey<Int>] = withDependencies {
      $0.defaultPostgresDatabase = writer
    } operation: {
      keys.map { .postgres($0) }
    }
    for (index, key) in written.enumerated() { try await save(index + 1, with: key) }
    await eventually("every write played back", { "\(readers.map(\.wrappedValue))" }) {
      readers.map(\.wrappedValue) == [1, 2, 3, 4, 5]
    }
  }
}
