import Foundation
import SharingCore
import SharingDependencies
import TestSupport

/// One write, made on a thread of its own while other threads keep writing the same value,
/// and the turns that thread takes to hand values on (saves, yields), counted.
///
/// The job that takes turns calls ``turnTaken()``. The writers start during the write's own
/// first turn, so that its thread takes turns while they write; they write until the write
/// returns, or up to a bound if it never does.
final class OneWriteAmongWriters: Sendable {
  let writers: Int
  // NB: The observed thread is held, not identified by address: once it exits, a thread
  //     that takes a turn later (a dispatched yield) may get a 'Thread' at the same address.
  private let progress = Locked(
    (observed: nil as Thread?, observedTurns: 0, started: false, writes: 0)
  )
  private let finished = Locked((isWriteDone: false, threads: 0))

  init(writers: Int = 4) {
    self.writers = writers
  }

  /// The turns the observed write's thread took.
  var observedTurns: Int { progress.withLock { $0.observedTurns } }

  /// Counts a turn taken by the calling thread; holds the observed thread's first turn until
  /// the writers have written.
  func turnTaken() {
    let thread = Thread.current
    let isFirstObservedTurn = progress.withLock { progress in
      guard progress.observed === thread else { return false }
      progress.observedTurns += 1
      progress.started = true
      return progress.observedTurns == 1
    }
    guard isFirstObservedTurn else { return }
    while progress.withLock({ $0.writes }) < writers * 10 { sched_yield() }
  }

  /// Makes the observed write and the writers' writes, each adding one to `count`; returns
  /// once every thread has returned.
  func run(on count: Shared<Int>) async {
    for _ in 0..<writers {
      Thread.detachNewThread { [self] in
        while !progress.withLock({ $0.started }) { sched_yield() }
        for _ in 0..<20_000 where !finished.withLock({ $0.isWriteDone }) {
          count.withLock { $0 += 1 }
          progress.withLock { $0.writes += 1 }
        }
        finished.withLock { $0.threads += 1 }
      }
    }
    Thread.detachNewThread { [self] in
      progress.withLock { $0.observed = Thread.current }
      count.withLock { $0 += 1 }
      finished.withLock {
        $0.isWriteDone = true
        $0.threads += 1
      }
    }
    while finished.withLock({ $0.threads }) < writers + 1 { await Task.yield() }
  }
}
