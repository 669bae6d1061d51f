import CounterKit
import SharingCore
import SharingPersistence
import Testing

/// The counter's logic, against the fresh user defaults each test gets.
@Suite struct CounterTests {
  @Test func eachTestStartsFromAnEmptyStore() {
    let counter = Counter()
    #expect(counter.count == 0)
    #expect(counter.launchCount == 0)
  }

  @Test func launchesAreCountedInTheStore() {
    Counter().recordLaunch()
    Counter().recordLaunch()
    #expect(Counter().launchCount == 2)
  }

  @Test func incrementIsSeenByEveryCounter() throws {
    let counter = Counter()
    let other = Counter()
    try counter.increment(by: 5)
    try other.increment(by: 1)
    #expect(counter.count == 6)
    @Shared(.count) var count
    #expect(count == 6)
  }

  @Test func resetZeroesTheCountButKeepsTheLaunchCount() throws {
    let counter = Counter()
    counter.recordLaunch()
    try counter.increment(by: 3)
    counter.reset()
    #expect(counter.count == 0)
    #expect(counter.launchCount == 1)
  }

  @Test func incrementPastTheLargestIntegerFailsAndKeepsTheCount() throws {
    let counter = Counter()
    try counter.increment(by: Int.max - 1)
    #expect(throws: CounterError.overflow) { try counter.increment(by: 2) }
    #expect(counter.count == Int.max - 1)
  }
}
