import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// A change the program makes while another change of user defaults is being played back is
/// newer than it: the shared value keeps it, and the store holds it.
@Suite struct AppStoragePlaybackRaceTests {
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
}

/// Called once, by the next value decoded.
private let whileDecoding = Locked<(@Sendable () -> Void)?>(nil)

/// An integer whose decoding calls ``whileDecoding``.
private struct Hooked: RawRepresentable, Sendable, Equatable {
  var stored: Int
  var rawValue: Int { stored }

  init?(rawValue: Int) {
    let hook = whileDecoding.withLock { hook in
      defer { hook = nil }
      return hook
    }
    hook?()
    self.stored = rawValue
  }
}
