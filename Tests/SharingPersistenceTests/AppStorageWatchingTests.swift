import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Integration tests: changes made to user defaults outside of shared values, noticed in
/// real time. Each waits for the expected state with a generous deadline.
@Suite struct AppStorageWatchingTests {
  @Dependency(\.defaultAppStorage) var store

  @Test func directSetIsPlayedBack() async {
    @Shared(.appStorage("count")) var count = 0
    store.set(5, forKey: "count")
    await expectEventually("the direct write") { count == 5 }
    store.removeObject(forKey: "count")
    await expectEventually("the default value") { count == 0 }
  }

  @Test func changesThroughAnotherStoreObjectArrive() async throws {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(UserDefaults(suiteName: suite))
    let other = try #require(UserDefaults(suiteName: suite))
    @Shared(.appStorage("count", store: store)) var count = 0
    other.set(4, forKey: "count")
    await expectEventually("the other object's write") { count == 4 }
  }

  @Test func changesAreSavedToDisk() async throws {
    // NB: A suite in the directory of temporary stores, which is removed at exit.
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(UserDefaults(suiteName: suite))
    @Shared(.appStorage("name", store: store)) var name = ""
    $name.withLock { $0 = "Blob" }
    await expectEventually("the property list") {
      storedProperties(atPath: suite + ".plist")?["name"] as? String == "Blob"
    }
  }
}

/// The top-level dictionary of the property list at `path`, or `nil` if there is none.
func storedProperties(atPath path: String) -> [String: Any]? {
  guard let data = FileManager.default.contents(atPath: path) else { return nil }
  return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
}
