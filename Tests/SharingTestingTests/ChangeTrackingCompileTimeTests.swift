import Foundation
import Sharing
import SharingTesting
import Testing

/// Pins overload resolution of the change-tracking API: these tests pass by compiling.
@Suite struct ChangeTrackingCompileTimeTests {
  @Test func synchronousTrackingNeedsNoAwaitInAsyncContext() async {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    tracker.track { count.withLock { $0 += 1 } }
    await tracker.track { await Task.yield() }
    tracker.assert { count.withLock { $0 += 1 } }
  }

  @Test func trackingReturnsTheOperationsResult() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    let next = tracker.track {
      count.withLock { value -> Int in
        value += 1
        return value
      }
    }
    tracker.assert { count.withLock { $0 += 1 } }
    #expect(next == 1)
  }

  @Test func sendIsAwaitedInAsyncContext() async {
    let tester = FeatureTester(initialState: 0) { (state: inout Int, delta: Int) in
      state += delta
    }
    await tester.send(1) { $0 += 1 }
  }

  @Test func sendNeedsNoAwaitInSyncContext() {
    let tester = FeatureTester(initialState: 0) { (state: inout Int, delta: Int) in
      state += delta
    }
    tester.send(1) { $0 += 1 }
    tester.send(0)
  }

  @Test func traitsInferTheirValueFromTheKeyPath() {
    let traits: [DependenciesTrait] = [
      .dependency(\.uuid, .incrementing),
      .dependency(\.date, .constant(.distantPast)),
      .dependencies { $0.uuid = .constant(UUID(0)) },
      .dependencies,
    ]
    #expect(traits.count == 4)
  }

  @Test func singleClosureIsTheOperation() {
    let value = withTestDependencies { 42 }
    #expect(value == 42)
  }
}
