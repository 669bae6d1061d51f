import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Changes reach the store's file, and a store that cannot be written says so.
@Suite struct AppStorageSaveTests {
  @Test func storeThatCannotBeWrittenGivesSaveError() async throws {
    let store = try unwritableStore()
    @Shared(.appStorage("count", store: store)) var count = 0
    $count.withLock { $0 += 1 }
    #expect(count == 1)
    await expectEventually("the save error") { $count.saveError != nil }
    #expect("\($count.saveError.map { "\($0)" } ?? "")".contains("/dev/null is not a folder"))
  }

  @Test func explicitSaveToAStoreThatCannotBeWrittenThrows() async throws {
    let store = try unwritableStore()
    @Shared(.appStorage("name", store: store)) var name = ""
    $name.withLock { $0 = "Blob" }
    await #expect(throws: (any Error).self) { try await $name.save() }
  }

  /// As on Apple platforms, the store shows a change at once, and writes it to its file a
  /// moment later, off the caller's thread.
  @Test func aChangeIsInTheStoreAtOnceAndOnDiskSoonAfter() async throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(CountingDefaults(suiteName: suite))
    @Shared(.appStorage("count", store: store)) var count = 0
    let thread = currentThreadID()
    $count.withLock { $0 = 7 }
    #expect(store.integer(forKey: "count") == 7)
    #expect(!store.synchronizations.withLock { $0.contains(thread) })
    await expectEventually("the property list") {
      storedProperties(atPath: suite + ".plist")?["count"] as? Int == 7
    }
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

  /// A change to a small key of a store holding a large value costs what the small key
  /// costs: the store's property list is rewritten off the caller's thread, once for many
  /// changes, not on the thread of each `withLock`.
  @Test func aChangeToASmallKeyDoesNotRewriteALargeStoreOnTheCallersThread() async throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(CountingDefaults(suiteName: suite))
    store.set(Data(repeating: 7, count: 1_000_000), forKey: "large")
    @Shared(.appStorage("small", store: store)) var small = 0
    try await $small.save()
    let thread = currentThreadID()
    store.synchronizations.withLock { $0 = [] }
    let start = ContinuousClock.now
    for next in 1...20 {
      $small.withLock { $0 = next }
      #expect(store.integer(forKey: "small") == next)
    }
    let onThisThread = store.synchronizations.withLock { $0.filter { $0 == thread }.count }
    #expect(onThisThread == 0)
    await flushPendingWrites()
    // At most one write per throttle interval (50 ms at least), and the flush's: on a busy
    // machine the changes may span several intervals.
    let intervals = Int((ContinuousClock.now - start) / .milliseconds(50))
    #expect(store.synchronizations.withLock(\.count) <= intervals + 2)
    let stored = storedProperties(atPath: suite + ".plist")
    #expect(stored?["small"] as? Int == 20)
    #expect((stored?["large"] as? Data)?.count == 1_000_000)
  }

  /// A store whose file would be inside `/dev/null`: nothing can create it, not even root,
  /// and nothing is left behind.
  private func unwritableStore() throws -> UserDefaults {
    try #require(UserDefaults(suiteName: "/dev/null/\(UUID().uuidString)/store"))
  }
}
