/// Who hands a persisted value's changes to its key, and when, as a state machine: one
/// thread saves at a time, always reading the latest value, so the last value is saved last;
/// and no thread saves more than its own change plus one handed over to it, however long
/// other threads keep writing.
///
/// A thread that writes while nobody saves claims the save. A change made during that save
/// is handed over to the saver, which saves once more when done. A change made during that
/// handed-over save is not handed over again: its thread waits for the save in progress and
/// then saves itself, and changes made while it waits are left to it.
///
/// It decides; ``PersistentReference`` saves, and wakes a waiting thread, outside its lock.
/// `Waiter` is what a waiting thread is woken through.
struct SaveClaim<Waiter> {
  private var phase = Phase.idle
  /// The thread saving, to tell its own writes made from inside a save.
  private var saver: UInt = 0
  /// Whether a change was made that no save begun after it will read.
  private var isPending = false
  /// The thread waiting to save after the save in progress.
  private var waiter: (thread: UInt, waiter: Waiter)?

  private enum Phase {
    case idle
    /// The saver saves its own change.
    case ownSave
    /// The saver saves the changes made during its own save.
    case handedOverSave
  }

  /// What a thread that wrote does.
  enum WriteAction {
    /// Save the latest value now, then call ``saveFinished()``.
    case save
    /// Nothing: a save that will read this change is running or waiting.
    case none
    /// Wait until woken through the waiter, then save the latest value and call
    /// ``saveFinished()``.
    case waitThenSave(Waiter)
  }

  /// What the saver does after a save.
  enum FinishAction {
    /// Save the latest value again, then call ``saveFinished()`` again.
    case saveAgain
    /// Wake the waiting thread, which saves next; stop saving.
    case handOver(Waiter)
    /// Stop saving.
    case done
  }

  /// Records a change made by `thread`.
  ///
  /// - Parameter makeWaiter: Makes what the thread waits on, if it must wait.
  mutating func write(by thread: UInt, makeWaiter: () -> Waiter) -> WriteAction {
    switch phase {
    case .idle:
      phase = .ownSave
      saver = thread
      return .save
    case .ownSave:
      isPending = true
      return .none
    case .handedOverSave where thread == saver || waiter != nil:
      // NB: The saver's own write, made from inside a save, is saved by the saver; a
      //     waiting thread reads the value only once woken, so it saves this change too.
      isPending = isPending || thread == saver
      return .none
    case .handedOverSave:
      let waiter = makeWaiter()
      self.waiter = (thread, waiter)
      return .waitThenSave(waiter)
    }
  }

  /// Records that the saver's save was handed to the key.
  mutating func saveFinished() -> FinishAction {
    if let waiter {
      self.waiter = nil
      phase = .ownSave
      saver = waiter.thread
      isPending = false
      return .handOver(waiter.waiter)
    }
    guard isPending else {
      phase = .idle
      saver = 0
      return .done
    }
    isPending = false
    phase = .handedOverSave
    return .saveAgain
  }
}
