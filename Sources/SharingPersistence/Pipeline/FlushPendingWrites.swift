import Dispatch

/// Writes every value waiting to be persisted, and returns once it is stored.
///
/// Changes to ``FileStorageKey`` values are written after a throttle interval, and changes
/// to ``AppStorageKey`` values reach the disk a moment after they are made. Await this
/// function when that moment matters: before handing a file to another program, before
/// ending the process some other way than returning from `main` or calling `exit`, or at
/// the end of a long batch of changes:
///
/// ```swift
/// for todo in imported { $todos.withLock { $0.append(todo) } }
/// await flushPendingWrites()
/// print("Imported \(imported.count) todos.")
/// ```
///
/// It covers every ``FileStorage`` on the real file system, including the values of shared
/// values that were already released, and every user defaults store changed through a key.
/// A virtual file system's pending writes are left to its own
/// ``FileStorage/flushPendingWritesAndWait()``. Writes
/// made after it was called may or may not be included.
///
/// A failed write is not thrown here: it sets the ``/SharingCore/Shared/saveError`` of the shared values
/// involved. To write one value and learn whether it worked, use ``/SharingCore/Shared/save()``.
///
/// See <doc:Durability> for what is written when the process ends.
public func flushPendingWrites() async {
  await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
    // Writes happen on the thread that flushes: not one of the cooperative pool's.
    DispatchQueue.global().async {
      PendingWrites.shared.flush {
        AppStorageCenter.shared.synchronizeUnsavedStores()
        finished.resume()
      }
    }
  }
}

/// Writes every value waiting to be persisted, blocking the calling thread until it is
/// stored.
///
/// The synchronous twin of ``flushPendingWrites()``, for code that cannot wait
/// asynchronously. The calling thread writes the pending values itself, then waits for
/// writes that other threads have started.
///
/// ```swift
/// flushPendingWritesAndWait()
/// execv(path, arguments)
/// ```
public func flushPendingWritesAndWait() {
  PendingWrites.shared.flushAndWait()
  AppStorageCenter.shared.synchronizeUnsavedStores()
}
