import Foundation
import SharingDependencies

/// A virtual file system held in memory, for tests and previews.
///
/// Files written through ``FileStorage`` stay in memory; ``externalWrite(_:to:)`` plays the
/// part of another program and tells watchers synchronously, so tests of external changes
/// are deterministic.
final class InMemoryFileSystem: FileSystemBackend {
  private struct State {
    var files: [URL: Data] = [:]
    var nextWatchID = 0
    var watchers: [URL: [Int: @Sendable () -> Void]] = [:]
    var locks: [URL: FileLockBox] = [:]
  }

  /// The lock of one file: only this process uses a virtual file system.
  private final class FileLockBox: Sendable {
    let lock = Lock()
  }

  private let state = Locked(State())
  private let holders = FileLockHolders<URL>()

  func contents(of url: URL) throws -> Data? {
    state.withLock { $0.files[url] }
  }

  func write(_ data: Data, to url: URL) throws {
    state.withLock { $0.files[url] = data }
  }

  func create(_ data: Data, at url: URL, permissionsOf template: URL) throws -> Bool {
    state.withLock { state in
      guard state.files[url] == nil else { return false }
      state.files[url] = data
      return true
    }
  }

  func externalWrite(_ data: Data?, to url: URL) throws {
    let watchers = state.withLock { state in
      state.files[url] = data
      return state.watchers[url, default: [:]].sorted { $0.key < $1.key }.map(\.value)
    }
    for onChange in watchers { onChange() }
  }

  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> FileWatch {
    let id = state.withLock { state in
      defer { state.nextWatchID += 1 }
      state.watchers[url, default: [:]][state.nextWatchID] = onChange
      return state.nextWatchID
    }
    return FileWatch(isLive: true) { [self] in
      state.withLock { state in
        state.watchers[url]?.removeValue(forKey: id)
        if state.watchers[url]?.isEmpty == true { state.watchers[url] = nil }
      }
    }
  }

  func removeAbandonedTemporaryFiles(of url: URL) {}

  /// Does nothing: a virtual file that does not exist stays absent, so that a test sees
  /// only what the program wrote.
  func createEmptyFileIfMissing(at url: URL) {}

  /// Locks the file against other threads: readers too wait for each other here.
  func lock(_ url: URL, exclusive: Bool) throws -> FileLock {
    holders.lock(url) {
      let box = state.withLock { state in
        if let box = state.locks[url] { return box }
        let box = FileLockBox()
        state.locks[url] = box
        return box
      }
      box.lock.lock()
      return FileLock { box.lock.unlock() }
    }
  }
}
