import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Changes reach the store's file, and a store that cannot be written says so.
@Suite struct AppStorageSaveTests {
  @Test func storeThatCannotBeWrittenGivesSaveError() throws {
    let store = try unwritableStore()
    // NB: Stored, for the reason given in 'firstChangeIsOnDiskWhenWithLockReturns'.
    store.set(0, forKey: "count")
    @Shared(.appStorage("count", store: store)) var count = 0
    $count.withLock { $0 += 1 }
    #expect(count == 1)
    let error = try #require($count.saveError)
    #expect("\(error)".contains("/dev/null is not a folder"))
  }

  @Test func explicitSaveToAStoreThatCannotBeWrittenThrows() async throws {
    let store = try unwritableStore()
    @Shared(.appStorage("name", store: store)) var name = ""
    $name.withLock { $0 = "Blob" }
    await #expect(throws: (any Error).self) { try await $name.save() }
  }

  @Test func firstChangeIsOnDiskWhenWithLockReturns() throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(UserDefaults(suiteName: suite))
    // NB: A stored value, so that loading writes no default: the default's write, synchronised
    //     in the background, would make this change the second of a throttle interval if the
    //     test ran later than that interval after the load.
    store.set(0, forKey: "count")
    @Shared(.appStorage("count", store: store)) var count = 0
    $count.withLock { $0 = 7 }
    #expect(storedProperties(atPath: suite + ".plist")?["count"] as? Int == 7)
    #expect($count.saveError == nil)
  }

  /// Integration test: nothing but the store writes it.
  @Test func directChangeToAStoreNoKeyUsesReachesTheDisk() async throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(ObservedUserDefaults(suiteName: suite))
    store.set("Blob", forKey: "name")
    await expectEventually("the property list") {
      storedProperties(atPath: suite + ".plist")?["name"] as? String == "Blob"
    }
  }

  /// A store whose file would be inside `/dev/null`: nothing can create it, not even root,
  /// and nothing is left behind.
  private func unwritableStore() throws -> UserDefaults {
    try #require(UserDefaults(suiteName: "/dev/null/\(UUID().uuidString)/store"))
  }
}
