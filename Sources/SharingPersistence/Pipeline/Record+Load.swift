import Foundation
import SharingDependencies

extension Record {
  /// Reads the store — with `read`, if given — once this program's writes to it, pending or
  /// under way, have landed if `waitingForWrites` (a value read without them would take the
  /// shared value back, and a throttled write, which reads the value when it is made, would
  /// write that in place of the change), and hands what it holds to `apply`, as a delivery.
  ///
  /// The store is read again while what was read may be older than what a read, write or
  /// transaction came or is under way with: once the transaction, read or delivery under way
  /// ended (the load waits for it, blocking its thread, without reading), and up to
  /// ``loadAttempts`` times while changes and writes land during its reads.
  package func load<R>(
    waitingForWrites: Bool = true,
    reading read: (() throws -> StoredSnapshot<Stamp>)? = nil,
    into apply: (Result<StoredSnapshot<Stamp>, any Error>) -> R
  ) -> R {
    if waitingForWrites, !isIdle { flushAndWait() }
    let othersEnded = DispatchSemaphore(value: 0)
    var attempt = 1
    while true {
      // A change made during the last read is written before the next, which then finds it.
      if waitingForWrites, attempt > 1, state.withLock({ $0.machine.hasChangeToWrite }) {
        flushAndWait()
      }
      let ticket = state.withLock { $0.machine.loadStarted() }
      let found = Result { try read?() ?? io.read() }
      let isLastAttempt = attempt >= Self.loadAttempts
      let outcome = state.withLock { state in
        let outcome = state.machine.loadEnded(ticket, found, isLastAttempt: isLastAttempt) {
          othersEnded.signal()
        }
        // What the delivery or transaction of this thread brings lands after the load's value
        // anyway: the load is handed over beside it. Its resume, registered all the same, is
        // called once the machine is quiet, and signals a semaphore nobody waits on.
        let isThisThread = { (thread: pthread_t?) in
          thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        let isBusy = isThisThread(state.deliveringThread) || isThisThread(state.transactingThread)
        return outcome == .waitForOthers && isBusy ? .deliverBesideAnother : outcome
      }
      switch outcome {
      case .deliver:
        defer { run(endDelivery()) }
        state.withLock { $0.deliveringThread = pthread_self() }
        return apply(found)
      case .deliverBesideAnother:
        return apply(found)
      case .readAgain:
        attempt += 1
      case .waitForOthers:
        othersEnded.wait()
      }
    }
  }

  /// How many times a load reads while changes or writes land during its reads: each read is
  /// short, so a shared value being created is handed an older value only if every one of
  /// them overlapped a write.
  private static var loadAttempts: Int { 100 }
}
