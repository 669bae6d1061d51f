import Dispatch
import SharingDependencies

/// Follows files by comparing their ``FileStamp`` at an interval: how ``FileWatcher`` follows
/// the files it cannot watch.
///
/// One timer serves every polled file, and runs only while a file is polled. Handlers run on
/// a dispatch queue, never with the lock held.
final class FilePoller: Sendable {
  private struct Entry {
    let path: String
    let onChange: @Sendable () -> Void
    /// The file's stamp when it was last checked.
    var stamp: FileStamp?
    /// The time, by the file system's clock, read before `stamp` was taken.
    var stampedAt: Duration

    /// Whether the file may have changed since it was last checked, given its stamp now: a
    /// stamp taken within the file system's clock tick of the file's modification is no
    /// proof that it did not, since a write in that tick, of the same size, leaves it alone.
    func mayHaveChanged(to stamp: FileStamp?) -> Bool {
      self.stamp != stamp || self.stamp?.mayRepeat(after: stampedAt) == true
    }
  }

  private struct State {
    var nextID = 0
    var entries: [Int: Entry] = [:]
    var isScheduled = false
  }

  /// How often each file is checked.
  let interval: Duration
  private let state = Locked(State())

  init(interval: Duration) {
    self.interval = interval
  }

  /// Calls `onChange` whenever the file at `path` is found changed since it was last
  /// checked, starting from now, until the returned closure is called.
  func poll(path: String, onChange: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let now = FileStamp.now()
    let stamp = FileStamp(path: path)
    let (id, schedules) = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.entries[id] = Entry(path: path, onChange: onChange, stamp: stamp, stampedAt: now)
      defer { state.isScheduled = true }
      return (id, !state.isScheduled)
    }
    if schedules { schedule() }
    return { [self] in state.withLock { _ = $0.entries.removeValue(forKey: id) } }
  }

  private func schedule() {
    DispatchQueue.global().asyncAfter(deadline: .now() + interval.dispatchInterval) {
      [self] in check()
    }
  }

  /// Calls the handlers of the files whose stamp changed, or may have stayed the same across
  /// a change; checks again while any file is polled.
  private func check() {
    let paths = state.withLock { state in state.entries.mapValues(\.path) }
    // Stamped without the lock: a 'stat' of each file must not hold up the others' polls.
    let now = FileStamp.now()
    let stamps = paths.mapValues { FileStamp(path: $0) }
    let (handlers, continues) = state.withLock { state in
      var handlers: [@Sendable () -> Void] = []
      for (id, stamp) in stamps {
        guard let entry = state.entries[id] else { continue }
        state.entries[id]?.stamp = stamp
        state.entries[id]?.stampedAt = now
        if entry.mayHaveChanged(to: stamp) { handlers.append(entry.onChange) }
      }
      state.isScheduled = !state.entries.isEmpty
      return (handlers, state.isScheduled)
    }
    for handler in handlers { handler() }
    if continues { schedule() }
  }
}
