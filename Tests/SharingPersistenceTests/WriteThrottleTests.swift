import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

@Suite struct WriteThrottleTests {
  private func write(_ value: String) -> PendingWrite {
    PendingWrite(encode: { Data(value.utf8) }, continuations: [])
  }

  @Test func firstChangeIsScheduledAtOnce() throws {
    var throttle = WriteThrottle(interval: .seconds(1))
    #expect(throttle.enqueue(write("a"), now: .seconds(10)).delay == .zero)
    #expect(throttle.enqueue(write("b"), now: .seconds(10)).delay == nil)
    let ticket = throttle.takeScheduled(now: .seconds(10))
    #expect(try ticket?.write.encode() == Data("b".utf8))
  }

  @Test func laterChangesWaitForTheInterval() throws {
    var throttle = WriteThrottle(interval: .seconds(1))
    _ = throttle.enqueue(write("a"), now: .zero)
    _ = throttle.takeScheduled(now: .zero)
    #expect(throttle.enqueue(write("b"), now: .milliseconds(300)).delay == .milliseconds(700))
    #expect(throttle.enqueue(write("c"), now: .milliseconds(400)).delay == nil)
    let ticket = throttle.takeScheduled(now: .seconds(1))
    #expect(try ticket?.write.encode() == Data("c".utf8))
    #expect(throttle.enqueue(write("d"), now: .seconds(5)).delay == .zero)
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
    #expect(throttle.enqueue(write("b"), now: .zero).delay == .zero)
  }

  @Test func aReplacedChangeHandsBackItsSaves() {
    let resumed = Locked<[String]>([])
    func save(_ name: String) -> SaveContinuation {
      SaveContinuation(name) { _ in resumed.withLock { $0.append(name) } }
    }
    var throttle = WriteThrottle(interval: .seconds(1))
    let first = throttle.enqueue(
      PendingWrite(encode: { Data() }, continuations: [save("a")]),
      now: .zero
    )
    #expect(first.superseded.isEmpty)
    let second = throttle.enqueue(
      PendingWrite(encode: { Data() }, continuations: [save("b")]),
      now: .zero
    )
    #expect(second.superseded.count == 1)
    for continuation in second.superseded { continuation.resume() }
    #expect(resumed.withLock { $0 } == ["a"])
    for continuation in throttle.discardPending() { continuation.resume() }
    #expect(resumed.withLock { $0 } == ["a", "b"])
  }
}
