import Foundation
import SharingCore
import Testing

@testable import SharingPersistence

@Suite struct WriteThrottleTests {
  private func write(_ value: String) -> PendingWrite {
    PendingWrite(encode: { Data(value.utf8) }, continuations: [])
  }

  @Test func firstChangeIsScheduledAtOnce() throws {
    var throttle = WriteThrottle(interval: .seconds(1))
    #expect(throttle.enqueue(write("a"), now: .seconds(10)) == .zero)
    #expect(throttle.enqueue(write("b"), now: .seconds(10)) == nil)
    let ticket = throttle.takeScheduled(now: .seconds(10))
    #expect(try ticket?.write.encode() == Data("b".utf8))
  }

  @Test func laterChangesWaitForTheInterval() throws {
    var throttle = WriteThrottle(interval: .seconds(1))
    _ = throttle.enqueue(write("a"), now: .zero)
    _ = throttle.takeScheduled(now: .zero)
    #expect(throttle.enqueue(write("b"), now: .milliseconds(300)) == .milliseconds(700))
    #expect(throttle.enqueue(write("c"), now: .milliseconds(400)) == nil)
    let ticket = throttle.takeScheduled(now: .seconds(1))
    #expect(try ticket?.write.encode() == Data("c".utf8))
    #expect(throttle.enqueue(write("d"), now: .seconds(5)) == .zero)
  }

  @Test func immediateWritesSupersedeThePendingOne() throws {
    var throttle = WriteThrottle(interval: .seconds(1))
    _ = throttle.enqueue(write("a"), now: .zero)
    let first = throttle.takeScheduled(now: .zero)
    _ = throttle.enqueue(write("b"), now: .zero)
    let immediate = throttle.takeImmediate(write("c"), now: .zero)
    #expect(throttle.pending == nil)
    #expect(try immediate.write.encode() == Data("c".utf8))
    #expect(immediate.sequence > (first?.sequence ?? .max))
    #expect(throttle.takeScheduled(now: .seconds(1)) == nil)
  }

  @Test func zeroIntervalWritesEveryChangeThrough() {
    var throttle = WriteThrottle(interval: .zero)
    _ = throttle.enqueue(write("a"), now: .zero)
    _ = throttle.takeScheduled(now: .zero)
    #expect(throttle.enqueue(write("b"), now: .zero) == .zero)
  }
}
