import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// The default value a load stores for a key that has none is written only while the key
/// still has none: it never overwrites a value stored since, by this process or another.
/// Integration tests, on the real disk.
@Suite final class AppStorageDefaultValueTests {
  let suite = TemporaryUserDefaults.makeSuiteName()
  let store: UserDefaultsBox
  let file: DefaultsFile
  let io: DefaultsIO
  let loader = DefaultsKeysTests.Writer()

  init() throws {
    store = UserDefaultsBox(base: try #require(ObservedUserDefaults(suiteName: suite)))
    file = try #require(DefaultsFile.of(store.base))
    io = DefaultsIO(keys: DefaultsKeys(store: store), file: file)
    // NB: In use, as a record's store is: Foundation writes every store of the process when
    //     any is synchronized, which other tests do meanwhile.
    DefaultsSynchronizer.shared.open(file, keys: io.keys)
    // NB: A synchronization of another store that began before this one was opened checks
    //     it without its lock if this test holds the lock then; it is over once one of this
    //     store is, as they are made one at a time.
    _ = try io.write(Data(), keepingAside: nil)
  }

  deinit {
    DefaultsSynchronizer.shared.close(file, keys: io.keys)
  }

  @Test func aDefaultValueIsWrittenWhenTheFileStillHasNoValue() throws {
    _ = io.keys.storeDefault(0, forKey: "count", by: ObjectIdentifier(loader))
    _ = try io.write(Data(), keepingAside: nil)
    #expect(storedProperties(atPath: suite + ".plist")?["count"] as? Int == 0)
  }

  @Test func aDefaultValueDoesNotOverwriteAValueAnotherProcessWroteSince() throws {
    let told = Locked(0)
    _ = io.keys.subscribe(key: "count", writer: ObjectIdentifier(loader)) {
      told.withLock { $0 += 1 }
    }
    _ = io.keys.storeDefault(0, forKey: "count", by: ObjectIdentifier(loader))
    try writeFileAsAnotherProcess(["count": 5, "other": "kept"])
    _ = try io.write(Data(), keepingAside: nil)
    #expect(storedProperties(atPath: suite + ".plist")?["count"] as? Int == 5)
    #expect(storedProperties(atPath: suite + ".plist")?["other"] as? String == "kept")
    #expect(store.base.integer(forKey: "count") == 5)
    #expect(told.withLock { $0 } == 1)
  }

  @Test func aDefaultValueChangedThroughAnotherStoreObjectIsWrittenNotTakenBack() throws {
    _ = io.keys.storeDefault(0, forKey: "count", by: ObjectIdentifier(loader))
    // Written by a synchronization of another store: Foundation writes every store.
    try writeFileAsAnotherProcess(["count": 0])
    UserDefaults(suiteName: suite)?.set(4, forKey: "count")
    _ = try io.write(Data(), keepingAside: nil)
    #expect(storedProperties(atPath: suite + ".plist")?["count"] as? Int == 4)
  }

  @Test func aDefaultValueIsNotStoredOverAValueStoredSinceTheLoadReadWhichIsReadInstead() {
    _ = io.keys.store(5, forKey: "count", by: ObjectIdentifier(DefaultsKeysTests.Writer()))
    let stored = io.keys.storeDefault(0, forKey: "count", by: ObjectIdentifier(loader))
    #expect(stored.found as? Int == 5)
    #expect(store.base.integer(forKey: "count") == 5)
  }

  /// Writes the store's file as another process of this package does: with its lock held.
  private func writeFileAsAnotherProcess(_ properties: [String: Any]) throws {
    try FileManager.default.createDirectory(
      at: file.url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    let lock = try DiskFileSystem().lock(file.url, exclusive: true)
    defer { lock.unlock() }
    try PropertyListSerialization.data(fromPropertyList: properties, format: .xml, options: 0)
      .write(to: file.url)
  }
}
