import SharingDependencies
import Synchronization

/// The transactions of a root persisted by a ``CoordinatedSharedKey``: one at a time in this
/// process, each run by the key's store.
final class Coordination<Value>: Sendable {
  let key: any CoordinatedSharedKey<Value>
  private let lock = Lock()
  /// The thread running a transaction, to tell a `withLock` nested in its body.
  private let owner = Atomic<UInt>(0)

  init(key: any CoordinatedSharedKey<Value>) {
    self.key = key
  }

  /// Whether `thread` is running a transaction: a write it makes now is nested in one.
  func isRunning(on thread: UInt) -> Bool {
    owner.load(ordering: .relaxed) == thread
  }

  /// Runs `body` as this process's only transaction, on the calling thread.
  func exclusively<R>(on thread: UInt, _ body: () -> R) -> R {
    lock.withLock {
      owner.store(thread, ordering: .relaxed)
      defer { owner.store(0, ordering: .relaxed) }
      return body()
    }
  }

  /// Waits until a transaction another thread runs, if any, has stored its result: a value
  /// the store delivers meanwhile may be newer, and must not be overwritten by it.
  func waitForTransaction(on thread: UInt) {
    guard !isRunning(on: thread) else { return }
    lock.withLock {}
  }
}

extension KeyPersistence {
  var isCoordinated: Bool { coordination != nil }

  /// A write through a coordinated key: run by the key's store as a transaction, which brings
  /// the value up to date with the store before `body` runs, and stores the result before
  /// memory is updated and observers are told, once. Nothing is saved afterwards.
  ///
  /// If the store fails, memory is left as it was and the error becomes ``saveError``; if it
  /// failed before running `body`, `body` runs on a copy of the value that is then dropped,
  /// for its result. A store that may have made the change (its answer was lost) says so in
  /// its error, and delivers what it holds to the key's subscribers. If `body` returns
  /// `false` (`withLock`'s body threw), nothing changes.
  func transaction(_ body: (inout Value) -> Bool) {
    // Inside a test's assertion, a write describes the expected value: it goes to the snapshot, as
    // any other write does, and never to the store.
    guard let coordination, SharedTracking.asserting == nil else {
      root.write(from: .program, body)
      return
    }
    let thread = currentThreadID()
    guard !coordination.isRunning(on: thread) else {
      reportNestedWithLock(on: keyDescription)
      return runOnADroppedCopy(body)
    }
    coordination.exclusively(on: thread) {
      var value = root.readUntracked()
      var (ranBody, bodyThrew) = (false, false)
      do {
        try coordination.key.withTransaction(&value) { (stored: inout Value) in
          ranBody = true
          bodyThrew = !body(&stored)
          if bodyThrew { throw BodyThrew() }
        }
      } catch {
        guard !bodyThrew else { return }
        finishSave(.failure(error))
        if !ranBody { runOnADroppedCopy(body) }
        return
      }
      root.write(from: .store) { $0 = value }
      finishSave(.success(()))
      guard !ranBody else { return }
      reportIssue(
        """
        \(keyDescription) returned from 'withTransaction' without calling its body: the \
        change was not made.
        """
      )
      runOnADroppedCopy(body)
    }
  }

  /// Runs `body` for its result, on a copy of the value that is dropped.
  private func runOnADroppedCopy(_ body: (inout Value) -> Bool) {
    var dropped = root.readUntracked()
    _ = body(&dropped)
  }
}

/// Ends a transaction whose `withLock` body threw, which ``Shared/withLock(_:)`` rethrows.
private struct BodyThrew: Error {}
