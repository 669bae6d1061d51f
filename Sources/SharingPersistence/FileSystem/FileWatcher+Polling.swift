import Foundation
import SharingDependencies

#if os(Linux) || os(Android)
  extension FileWatcher {
    /// What a polled file was when it was last checked.
    struct PolledStamp {
      /// The time, by the file system's clock, read before `stamp` was taken.
      let takenAt: Duration
      let stamp: FileStamp?

      /// The stamp of the file at `path` now.
      init(path: String) {
        takenAt = FileStamp.now()
        stamp = FileStamp(path: path)
      }

      /// Whether the file may have changed since, given `later`, its stamp now: a stamp taken
      /// within the file system's clock tick of the file's modification is no proof that it
      /// did not, since a write in that tick, of the same size, leaves it alone.
      func mayHaveChanged(to later: PolledStamp) -> Bool {
        stamp != later.stamp || stamp?.mayRepeat(after: takenAt) == true
      }
    }

    /// Polls the file from now on, comparing its ``FileStamp`` every ``pollingInterval``:
    /// inotify cannot watch it. One timer serves every polled file, and runs only while a
    /// file is polled.
    func poll(_ id: Int, in state: inout State) {
      guard let watch = state.watches[id], watch.polled == nil else { return }
      state.watches[id]?.polled = PolledStamp(path: watch.path)
      guard !state.isPolling else { return }
      state.isPolling = true
      schedulePoll()
    }

    private func schedulePoll() {
      DispatchQueue.global().asyncAfter(deadline: .now() + pollingInterval.dispatchInterval) {
        [self] in checkPolledFiles()
      }
    }

    /// Calls the handlers of the polled files whose stamp changed, or may have stayed the
    /// same across a change; checks again while any file is polled.
    private func checkPolledFiles() {
      let paths = state.withLock { $0.watches.filter { $0.value.polled != nil }.mapValues(\.path) }
      // Stamped without the lock: a 'stat' of each file must not hold up the others' polls.
      let stamps = paths.mapValues { PolledStamp(path: $0) }
      let (handlers, continues) = state.withLock { state in
        var handlers: [@Sendable () -> Void] = []
        for (id, stamp) in stamps {
          guard let watch = state.watches[id], let polled = watch.polled else { continue }
          state.watches[id]?.polled = stamp
          if polled.mayHaveChanged(to: stamp) { handlers.append(watch.onChange) }
        }
        state.isPolling = state.watches.values.contains { $0.polled != nil }
        return (handlers, state.isPolling)
      }
      for handler in handlers { handler() }
      if continues { schedulePoll() }
    }
  }
#endif
