import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

@Suite struct AppStorageKeyTests {
  @Dependency(\.defaultAppStorage) var store

  @Test func defaultIsWrittenToTheStoreOnFirstLoad() {
    @Shared(.appStorage("count")) var count = 42
    #expect(count == 42)
    #expect(store.integer(forKey: "count") == 42)
  }

  @Test func codableDefaultIsWrittenEncodedOnFirstLoad() {
    @Shared(.appStorage("layout")) var layout = Layout(columns: 2, title: "Home")
    #expect(text(store.data(forKey: "layout")) == #"{"columns":2,"title":"Home"}"#)
  }

  @Test func nilDefaultWritesNothing() {
    @Shared(.appStorage("name")) var name: String? = nil
    #expect(store.object(forKey: "name") == nil)
  }

  @Test func removalIsPlayedBackAndTheDefaultWrittenAgain() {
    @Shared(.appStorage("count")) var count = 42
    store.removeObject(forKey: "count")
    #expect(count == 42)
    // NB: As in swift-sharing: the playback of a removal writes the default value back.
    #expect(store.integer(forKey: "count") == 42)
  }

  @Test func stringArraysAreStoredAsPropertyListArrays() {
    @Shared(.appStorage("tags")) var tags: [String] = []
    $tags.withLock { $0 = ["a", "b"] }
    #expect(store.stringArray(forKey: "tags") == ["a", "b"])
  }

  @Test func nativelyStoredStringArraysAreRead() {
    store.set(["x", "y"], forKey: "tags")
    store.set(["z"], forKey: "optionalTags")
    @Shared(.appStorage("tags")) var tags: [String] = []
    @Shared(.appStorage("optionalTags")) var optionalTags: [String]? = nil
    #expect(tags == ["x", "y"])
    #expect(optionalTags == ["z"])
    $optionalTags.withLock { $0 = nil }
    #expect(store.object(forKey: "optionalTags") == nil)
  }

  @Test func directSetThroughTheStoreIsSeenBeforeItReturns() {
    @Shared(.appStorage("bool")) var bool = true
    @Shared(.appStorage("count")) var count = 0
    store.set(false, forKey: "bool")
    #expect(bool == false)
    store.set(3, forKey: "count")
    #expect(count == 3)
    store.removeObject(forKey: "count")
    #expect(count == 0)
  }

  @Test func directSetThroughAnInMemoryStoreIsSeenBeforeItReturns() {
    let store = UserDefaults.inMemory
    @Shared(.appStorage("bool", store: store)) var bool = true
    store.set(false, forKey: "bool")
    #expect(bool == false)
  }

  @Test func inMemoryStoresAreFreshAndIsolated() {
    let first = UserDefaults.inMemory
    let second = UserDefaults.inMemory
    first.set(1, forKey: "count")
    #expect(second.object(forKey: "count") == nil)
    #expect(first !== second)
  }

  @Test func inMemoryStoreCanBeTheDefaultStore() {
    let testStore = store
    withDependencies {
      $0.defaultAppStorage = .inMemory
    } operation: {
      @Dependency(\.defaultAppStorage) var store
      @Shared(.appStorage("count")) var count = 1
      $count.withLock { $0 += 1 }
      #expect(store.integer(forKey: "count") == 2)
      #expect(testStore.object(forKey: "count") == nil)
    }
  }

  @Test func keyFormatWarningCanBeTurnedOffAndDottedKeysWork() {
    withDependencies {
      $0.appStorageKeyFormatWarningEnabled = false
    } operation: {
      @Shared(.appStorage("settings.volume")) var volume = 0.5
      @Shared(.appStorage("@handle")) var handle = ""
      store.set(0.75, forKey: "settings.volume")
      #expect(volume == 0.75)
      _ = handle
    }
    @Shared(.appStorage("other.key")) var other = 1
    store.set(2, forKey: "other.key")
    #expect(other == 2)
  }

  @Test func nativeValuesRoundTrip() {
    let date = Date(timeIntervalSince1970: 1_234_567)
    do {
      @Shared(.appStorage("bool")) var bool = false
      @Shared(.appStorage("int")) var int = 0
      @Shared(.appStorage("double")) var double = 0.0
      @Shared(.appStorage("string")) var string = ""
      @Shared(.appStorage("data")) var data = Data()
      @Shared(.appStorage("date")) var storedDate = Date.distantPast
      $bool.withLock { $0 = true }
      $int.withLock { $0 = 7 }
      $double.withLock { $0 = 1.5 }
      $string.withLock { $0 = "Blob" }
      $data.withLock { $0 = Data([1, 2, 3]) }
      $storedDate.withLock { $0 = date }
    }
    #expect(store.object(forKey: "int") as? Int == 7)
    #expect(store.string(forKey: "string") == "Blob")
    @Shared(.appStorage("bool")) var bool = false
    @Shared(.appStorage("int")) var int = 0
    @Shared(.appStorage("double")) var double = 0.0
    @Shared(.appStorage("string")) var string = ""
    @Shared(.appStorage("data")) var data = Data()
    @Shared(.appStorage("date")) var storedDate = Date.distantPast
    #expect(bool == true)
    #expect(int == 7)
    #expect(double == 1.5)
    #expect(string == "Blob")
    #expect(data == Data([1, 2, 3]))
    #expect(storedDate == date)
  }

  @Test(arguments: [
    "https://example.com/path?query=1#fragment",
    "file:///tmp/some%20file.txt",
    "file:///tmp/notes.txt?version=2#top",
    "file:///not/yet/a/directory/",
    "myapp://open/item/42",
    "mailto:blob@example.com",
  ])
  func urlsRoundTripExactly(string: String) throws {
    let url = try #require(URL(string: string))
    // NB: The cases of one test share its store; each uses a key of its own.
    let key = "url \(string)"
    do {
      @Shared(.appStorage(key)) var stored = URL(string: "https://default.example")!
      $stored.withLock { $0 = url }
    }
    @Shared(.appStorage(key)) var stored = URL(string: "https://default.example")!
    #expect(stored == url)
    #expect(stored.absoluteString == string)
  }

  @Test func urlsAreStoredAsFoundationStoresThem() throws {
    let directory = URL(fileURLWithPath: "/dev")
    let file = URL(fileURLWithPath: "/tmp/some file.txt")
    let web = try #require(URL(string: "https://example.com/path?query=1#fragment"))
    @Shared(.appStorage("directory")) var storedDirectory = directory
    @Shared(.appStorage("file")) var storedFile: URL? = file
    @Shared(.appStorage("web")) var storedWeb = web
    #expect(store.url(forKey: "directory") == directory)
    #expect(store.url(forKey: "file") == file)
    #expect(store.url(forKey: "web") == web)
    #expect(store.string(forKey: "file") == "/tmp/some file.txt")
    $storedFile.withLock { $0 = nil }
    #expect(store.object(forKey: "file") == nil)
  }

  @Test func readsURLsStoredAsStringsByEarlierVersions() {
    store.set("https://example.com/a?b=c", forKey: "url")
    @Shared(.appStorage("url")) var url: URL? = nil
    #expect(url == URL(string: "https://example.com/a?b=c"))
  }

  @Test func readsURLsWrittenByFoundation() {
    store.set(URL(fileURLWithPath: "/tmp/notes.txt"), forKey: "url")
    @Shared(.appStorage("url")) var url: URL? = nil
    #expect(url == URL(fileURLWithPath: "/tmp/notes.txt"))
  }

  @Test func optionalsRoundTripAndNilRemoves() {
    @Shared(.appStorage("name")) var name: String? = nil
    @Shared(.appStorage("flag")) var flag: Bool? = nil
    @Shared(.appStorage("number")) var number: Int? = nil
    @Shared(.appStorage("ratio")) var ratio: Double? = nil
    @Shared(.appStorage("bytes")) var bytes: Data? = nil
    @Shared(.appStorage("when")) var when: Date? = nil
    @Shared(.appStorage("link")) var link: URL? = nil
    $name.withLock { $0 = "Blob" }
    $flag.withLock { $0 = false }
    $number.withLock { $0 = 3 }
    $ratio.withLock { $0 = 0.25 }
    $bytes.withLock { $0 = Data([9]) }
    $when.withLock { $0 = Date(timeIntervalSince1970: 0) }
    $link.withLock { $0 = URL(string: "https://example.com") }
    #expect(store.string(forKey: "name") == "Blob")
    #expect(store.object(forKey: "flag") as? Bool == false)
    #expect(store.object(forKey: "number") as? Int == 3)
    #expect(store.object(forKey: "ratio") as? Double == 0.25)
    #expect(store.data(forKey: "bytes") == Data([9]))
    #expect(store.object(forKey: "when") as? Date == Date(timeIntervalSince1970: 0))
    #expect(store.url(forKey: "link") == URL(string: "https://example.com"))
    $name.withLock { $0 = nil }
    $link.withLock { $0 = nil }
    #expect(store.object(forKey: "name") == nil)
    #expect(store.object(forKey: "link") == nil)
  }

  @Test func rawRepresentableValuesRoundTrip() {
    do {
      @Shared(.appStorage("priority")) var priority = Priority.low
      @Shared(.appStorage("theme")) var theme = Theme.light
      @Shared(.appStorage("optionalTheme")) var optionalTheme: Theme? = nil
      @Shared(.appStorage("optionalPriority")) var optionalPriority: Priority? = nil
      $priority.withLock { $0 = .high }
      $theme.withLock { $0 = .dark }
      $optionalTheme.withLock { $0 = .dark }
      $optionalPriority.withLock { $0 = .high }
    }
    #expect(store.object(forKey: "priority") as? Int == 1)
    #expect(store.string(forKey: "theme") == "dark")
    @Shared(.appStorage("priority")) var priority = Priority.low
    @Shared(.appStorage("theme")) var theme = Theme.light
    @Shared(.appStorage("optionalTheme")) var optionalTheme: Theme? = nil
    @Shared(.appStorage("optionalPriority")) var optionalPriority: Priority? = nil
    #expect(priority == .high)
    #expect(theme == .dark)
    #expect(optionalTheme == .dark)
    #expect(optionalPriority == .high)
  }

  @Test func codableValuesRoundTripAsJSON() throws {
    do {
      @Shared(.appStorage("layout")) var layout = Layout(columns: 2, title: "Home")
      @Shared(.appStorage("optionalLayout")) var optionalLayout: Layout? = nil
      $layout.withLock { $0.columns = 3 }
      $optionalLayout.withLock { $0 = Layout(columns: 1, title: "Side") }
    }
    let data = try #require(store.data(forKey: "layout"))
    #expect(text(data) == #"{"columns":3,"title":"Home"}"#)
    @Shared(.appStorage("layout")) var layout = Layout(columns: 2, title: "Home")
    @Shared(.appStorage("optionalLayout")) var optionalLayout: Layout? = nil
    #expect(layout == Layout(columns: 3, title: "Home"))
    #expect(optionalLayout == Layout(columns: 1, title: "Side"))
    $optionalLayout.withLock { $0 = nil }
    #expect(store.object(forKey: "optionalLayout") == nil)
  }

  @Test func wrongTypeGivesDefaultAndALoadError() {
    store.set("many", forKey: "count")
    @Shared(.appStorage("count")) var count = 1
    #expect(count == 1)
    let message = $count.loadError.map { "\($0)" } ?? ""
    #expect(
      message.contains(#""count""#) && message.contains("'String'") && message.contains("'Int'")
    )
    #expect(store.string(forKey: "count") == "many")
  }

  @Test func unknownRawValueGivesDefaultAndALoadError() {
    store.set("sepia", forKey: "theme")
    @Shared(.appStorage("theme")) var theme = Theme.light
    #expect(theme == .light)
    #expect($theme.loadError != nil)
    #expect(store.string(forKey: "theme") == "sepia")
  }

  @Test func writesThroughOneKeyAreSeenByAnother() {
    @Shared(.appStorage("count")) var first = 0
    @Shared(.appStorage("count")) var second = 0
    $first.withLock { $0 = 5 }
    #expect(second == 5)
  }

  @Test func writesAreSeenAcrossDependencyScopes() {
    let store = self.store
    @Shared(.appStorage("count")) var count = 0
    withDependencies {
      $0.persistentReferences = PersistentReferences()
    } operation: {
      @Shared(.appStorage("count", store: store)) var other = 0
      $other.withLock { $0 = 9 }
    }
    #expect(count == 9)
  }

  @Test func storesAreIsolatedPerTest() {
    #expect(store.object(forKey: "isolated") == nil)
    @Shared(.appStorage("isolated")) var value = 0
    $value.withLock { $0 += 1 }
  }

  @Test func storesAreIsolatedPerTestToo() {
    #expect(store.object(forKey: "isolated") == nil)
    @Shared(.appStorage("isolated")) var value = 0
    $value.withLock { $0 += 1 }
  }

  @Test func description() {
    @Shared(.appStorage("count")) var count = 0
    #expect($count.description == #"Shared<Int>(.appStorage("count"))"#)
  }
}

enum Priority: Int, Codable { case low, high }
enum Theme: String, Codable { case light, dark }

struct Layout: Codable, Equatable {
  var columns: Int
  var title: String
}
