import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Durations handed to Dispatch: exact while they fit, never a trap when they do not.
@Suite struct DurationDispatchTests {
  @Test func intervalsThatFitAreExact() {
    #expect(Duration.zero.dispatchInterval == .nanoseconds(0))
    #expect(Duration.milliseconds(1_500).dispatchInterval == .nanoseconds(1_500_000_000))
    #expect(Duration.nanoseconds(7).dispatchInterval == .nanoseconds(7))
    #expect(Duration.seconds(3_600 * 24 * 365).dispatchInterval == .seconds(3_600 * 24 * 365))
    #expect(Duration.seconds(9_223_372_035).dispatchInterval == .seconds(9_223_372_035))
  }

  @Test func intervalsTooLongForDispatchNeverCome() {
    #expect(Duration.seconds(Int64.max / 2).dispatchInterval == .never)
    #expect(Duration.seconds(Int64.max).dispatchInterval == .never)
    #expect((Duration.seconds(Int64.max) + .seconds(Int64.max)).dispatchInterval == .never)
  }

  @Test func negativeIntervalsAreNoWait() {
    #expect(Duration.seconds(-1).dispatchInterval == .nanoseconds(0))
    #expect(Duration.seconds(Int64.min).dispatchInterval == .nanoseconds(0))
  }

  /// A throttle longer than Dispatch can wait holds later changes until a flush writes them.
  @Test func hugeThrottleIntervalDoesNotTrap() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("count.json")
      let storage = FileStorage.fileSystem(
        scheduler: DispatchWriteScheduler.shared,
        pendingWrites: PendingWrites()
      )
      withDependencies {
        $0.defaultFileStorage = storage
      } operation: {
        @Shared(.fileStorage(url, throttle: .seconds(Int64.max / 2))) var count = 0
        $count.withLock { $0 = 1 }
        $count.withLock { $0 = 2 }
        storage.flushPendingWritesAndWait()
        #expect(fileText(url) == "2")
        $count.withLock { $0 = 3 }
        storage.flushPendingWritesAndWait()
        #expect(fileText(url) == "3")
      }
    }
  }
}
