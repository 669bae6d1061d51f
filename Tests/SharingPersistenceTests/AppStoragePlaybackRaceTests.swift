import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// A change the program makes while another change of user defaults is being played back is
/// newer than it: the shared value keeps it, and the store holds it. A change stored
/// elsewhere while the program's change is being saved is older than it: both end with the
/// program's change.
// Serialized: its tests share the hooks of `Hooked`, which a test running beside would take.
@Suite(.serialized) struct AppStoragePlaybackRaceTests {
  @Dependency(\.defaultAppStorage) var store

  @Test func changeMadeWhileAPlaybackReadsTheStoreStaysAndIsStored() {
    @Shared(.appStorage("mode")) var mode = Hooked(rawValue: 1)!
    let shared = $mode
    // NB: Made from inside the playback's read of the store, after it read 7.
    whileDecoding.withLock { $0 = { shared.withLock { $0 = Hooked(rawValue: 99)! } } }
    store.set(7, forKey: "mode")
    #expect(mode.stored == 99)
    #expect(store.integer(forKey: "mode") == 99)
  }

  @Test func changeStoredElsewhereWhileASaveEncodesLeavesTheValueAndTheStoreAlike() {
    @Shared(.appStorage("mode")) var mode = Hooked(rawValue: 1)!
    nonisolated(unsafe) let store = self.store
    // NB: Stored from inside the save's encoding of 99, before the save stores it.
    whileEncoding.withLock { $0 = { store.set(7, forKey: "mode") } }
    $mode.withLock { $0 = Hooked(rawValue: 99)! }
    #expect(store.integer(forKey: "mode") == 99)
    #expect(mode.stored == 99)
  }

  @Test func aLoadMadeWhileASaveEncodesLeavesTheValueAndTheStoreAlike() async {
    @Shared(.appStorage("mode")) var mode = Hooked(rawValue: 1)!
    store.set(7, forKey: "mode")
    let shared = $mode
    let loaded = DispatchSemaphore(value: 0)
    let loadedDuringTheSave = Locked(false)
    // NB: Loaded, to the end, from inside the save's encoding of 99, before the save stores
    //     it. The save runs on a thread of its own, not the cooperative pool's, which the load
    //     needs while the save waits for it.
    whileEncoding.withLock {
      $0 = {
        Task.detached {
          try? await shared.load()
          loaded.signal()
        }
        let seconds = 60 * ThreadSanitizer.timeScale
        loadedDuringTheSave.withLock {
          $0 = loaded.wait(timeout: .now() + .seconds(seconds)) == .success
        }
      }
    }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        shared.withLock { $0 = Hooked(rawValue: 99)! }
        continuation.resume()
      }
    }
    #expect(loadedDuringTheSave.withLock { $0 })
    #expect(store.integer(forKey: "mode") == 99)
    #expect(mode.stored == 99)
  }

  @Test func changeMadeWhileALoadReadsTheStoreLeavesTheValueAndTheStoreAlike() async throws {
    @Shared(.appStorage("mode")) var mode = Hooked(rawValue: 1)!
    let shared = $mode
    store.set(7, forKey: "mode")
    // NB: Made from inside the load's read of the store, after it read 7.
    whileDecoding.withLock { $0 = { shared.withLock { $0 = Hooked(rawValue: 99)! } } }
    try await $mode.load()
    #expect(store.integer(forKey: "mode") == 99)
    #expect(mode.stored == 99)
  }
}

/// Called once, by the next value decoded.
private let whileDecoding = Locked<(@Sendable () -> Void)?>(nil)

/// Called once, by the next value encoded.
private let whileEncoding = Locked<(@Sendable () -> Void)?>(nil)

/// Takes the hook out of `hook`, so that it runs once.
private func take(_ hook: Locked<(@Sendable () -> Void)?>) -> (@Sendable () -> Void)? {
  hook.withLock { hook in
    defer { hook = nil }
    return hook
  }
}

/// An integer whose decoding calls ``whileDecoding`` and whose encoding ``whileEncoding``.
private struct Hooked: RawRepresentable, Sendable, Equatable {
  var stored: Int
  var rawValue: Int {
    take(whileEncoding)?()
    return stored
  }

  init?(rawValue: Int) {
    take(whileDecoding)?()
    self.stored = rawValue
  }
}
