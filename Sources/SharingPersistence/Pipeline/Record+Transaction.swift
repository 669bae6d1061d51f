package import Foundation
import SharingDependencies

extension Record where IO: TransactionalRecordIO {
  /// Runs one change as a transaction of the store: `change` gets what the store holds, with
  /// every other writer locked out, and returns the contents to write, or `nil` to leave it.
  ///
  /// What the transaction reads is not played back; what it writes is known as the program's
  /// own. One whose outcome is unknown throws the error of its
  /// ``TransactionOutcomeUnknown``.
  package func transaction(_ change: (StoredSnapshot<Stamp>) throws -> Data?) throws {
    state.withLock { state in
      state.machine.transactionBegan()
      state.transactingThread = pthread_self()
    }
    var wrote: (stamp: Stamp, contents: Data)?
    var isOutcomeUnknown = false
    defer {
      let actions = state.withLock { state in
        state.transactingThread = nil
        return state.machine.transactionEnded(wrote: wrote, outcomeUnknown: isOutcomeUnknown)
      }
      // A read it asks for may deliver a newer value, which must reach the shared values after
      // the transaction's result: it is made on another thread, where a delivery waits for
      // the caller to store that result.
      let reads = actions.filter { $0.isRead }
      run(actions.filter { !$0.isRead })
      if !reads.isEmpty { DispatchQueue.global().async { [self] in run(reads) } }
    }
    do {
      wrote = try io.transaction(
        read: { read in state.withLock { $0.machine.transactionRead(read) } },
        change
      )
    } catch let unknown as TransactionOutcomeUnknown {
      isOutcomeUnknown = true
      throw unknown.error
    }
  }
}
