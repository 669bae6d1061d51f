import Foundation
import Testing

@testable import SharingPersistence

/// How long a user defaults store waits between synchronizations grows with the processor
/// time the last one took: a busy machine or a slow disk lengthen a synchronization of a
/// small store without making it more work, and must not hold back the next one.
@Suite struct ProcessorTimeTests {
  @Test func timeSpentWaitingIsNotCounted() {
    let (_, work) = measuringProcessorTime { usleep(300_000) }
    #expect(work < .milliseconds(100))
  }

  @Test func timeSpentWorkingIsCounted() {
    let (_, work) = measuringProcessorTime {
      let start = ContinuousClock.now
      var spins = 0
      while ContinuousClock.now - start < .milliseconds(50) { spins &+= 1 }
      return spins
    }
    #expect(work > .zero)
  }
}
