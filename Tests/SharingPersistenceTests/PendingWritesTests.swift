import SharingDependencies
import Testing

@testable import SharingPersistence

/// The records that a flush writes. A record's executor updates its entry after unlocking, so
/// the updates of two threads can arrive in either order: what the record has pending when
/// each arrives decides, not which came last.
@Suite struct PendingWritesTests {
  let pendingWrites = PendingWrites()

  @Test func anUpdateArrivingLateKeepsARecordThatHasAWritePending() {
    let record = FakeRecord(isIdle: false)
    pendingWrites.update(record)
    // From a write that ended before the record's next change was saved.
    pendingWrites.update(record)
    pendingWrites.flushAndWait()
    #expect(record.flushes.withLock { $0 } == 1)
  }

  @Test func anUpdateArrivingLateDropsARecordWithNothingPending() {
    let record = FakeRecord(isIdle: true)
    pendingWrites.update(record)
    // From a change whose write ended before this arrived.
    pendingWrites.update(record)
    pendingWrites.flushAndWait()
    #expect(record.flushes.withLock { $0 } == 0)
  }

  final class FakeRecord: FlushableRecord {
    let isIdle: Bool
    let flushes = Locked(0)

    init(isIdle: Bool) {
      self.isIdle = isIdle
    }

    func flush(_ done: @escaping @Sendable () -> Void) {
      flushes.withLock { $0 += 1 }
      done()
    }
  }
}
