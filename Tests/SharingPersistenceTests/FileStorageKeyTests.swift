import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// File storage on the default storage of tests: a virtual file system per test.
@Suite struct FileStorageKeyTests {
  let url = URL(fileURLWithPath: "/virtual/settings.json")
  @Dependency(\.defaultFileStorage) var storage

  @Test func defaultWhenMissing() {
    @Shared(.fileStorage(url)) var count = 42
    #expect(count == 42)
    #expect($count.loadError == nil)
    #expect(storage.contents(of: url) == nil)
  }

  @Test func defaultWhenEmpty() {
    storage.simulateExternalWrite(Data(), to: url)
    @Shared(.fileStorage(url)) var count = 42
    #expect(count == 42)
    #expect($count.loadError == nil)
  }

  @Test func savesAsSortedPrettyJSON() {
    @Shared(.fileStorage(url)) var settings = Settings(name: "Blob", isOn: false)
    $settings.withLock { $0.isOn = true }
    #expect(text(storage.contents(of: url)) == "{\n  \"isOn\" : true,\n  \"name\" : \"Blob\"\n}")
  }

  @Test func loadsWhatWasSaved() {
    do {
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 7 }
    }
    @Shared(.fileStorage(url)) var count = 0
    #expect(count == 7)
  }

  @Test func customCoding() {
    let key = FileStorageKey<String>.fileStorage(
      url,
      decode: { String(decoding: $0, as: UTF8.self) },
      encode: { Data($0.utf8) }
    )
    storage.simulateExternalWrite(bytes("hello"), to: url)
    @Shared(key) var greeting = ""
    #expect(greeting == "hello")
    $greeting.withLock { $0 += ", world" }
    #expect(text(storage.contents(of: url)) == "hello, world")
  }

  @Test func externalWriteIsPlayedBack() {
    @Shared(.fileStorage(url)) var isOn = true
    storage.simulateExternalWrite(bytes("false"), to: url)
    #expect(isOn == false)
  }

  @Test func externalDeleteRestoresDefault() {
    @Shared(.fileStorage(url)) var count = 1
    $count.withLock { $0 = 5 }
    storage.simulateExternalWrite(nil, to: url)
    #expect(count == 1)
  }

  @Test func twoSharedOnOneURLShareTheValue() {
    @Shared(.fileStorage(url)) var first = 0
    @Shared(.fileStorage(url)) var second = 0
    $first.withLock { $0 = 3 }
    #expect(second == 3)
    storage.simulateExternalWrite(bytes("9"), to: url)
    #expect(first == 9)
    #expect(second == 9)
  }

  @Test func isolatedPerTest() {
    #expect(storage.contents(of: url) == nil)
    @Shared(.fileStorage(url)) var count = 0
    $count.withLock { $0 += 1 }
  }

  @Test func isolatedPerTestToo() {
    #expect(storage.contents(of: url) == nil)
    @Shared(.fileStorage(url)) var count = 0
    $count.withLock { $0 += 1 }
  }

  @Test func storagesDoNotShareReferences() {
    @Shared(.fileStorage(url)) var count = 0
    $count.withLock { $0 = 1 }
    let other = FileStorage.inMemory
    withDependencies {
      $0.defaultFileStorage = other
    } operation: {
      @Shared(.fileStorage(url)) var otherCount = 0
      #expect(otherCount == 0)
      $otherCount.withLock { $0 = 2 }
    }
    #expect(count == 1)
    #expect(text(other.contents(of: url)) == "2")
    #expect(FileStorage.inMemory != FileStorage.inMemory)
  }

  /// An undecodable file is a condition of the data, not a programmer error: it sets
  /// `loadError` and reports no issue.
  @Test func undecodableFileSetsLoadErrorAndKeepsBytes() throws {
    storage.simulateExternalWrite(bytes("not json"), to: url)
    do {
      @Shared(.fileStorage(url)) var count = 1
      #expect(count == 1)
      #expect($count.loadError != nil)
      #expect(text(storage.contents(of: url)) == "not json")
      $count.withLock { $0 = 2 }
      #expect(text(storage.contents(of: url)) == "2")
    }
  }

  @Test func laterSuccessfulLoadClearsLoadError() async throws {
    storage.simulateExternalWrite(bytes("{"), to: url)
    do {
      @Shared(.fileStorage(url)) var count = 1
      #expect($count.loadError != nil)
      storage.simulateExternalWrite(bytes("5"), to: url)
      #expect(count == 5)
      #expect($count.loadError == nil)
      storage.simulateExternalWrite(bytes("6"), to: url)
      try await $count.load()
      #expect(count == 6)
    }
  }

  @Test func explicitSaveAndLoad() async throws {
    @Shared(.fileStorage(url)) var count = 0
    $count.withLock { $0 = 4 }
    try await $count.save()
    #expect(text(storage.contents(of: url)) == "4")
    #expect($count.saveError == nil)
  }

  /// The key prints its URL, as swift-sharing's does.
  @Test func description() {
    @Shared(.fileStorage(url)) var count = 0
    #expect(
      String(describing: FileStorageKey<Int>.fileStorage(url))
        == ".fileStorage(file:///virtual/settings.json)"
    )
    #expect($count.description == "Shared<Int>(.fileStorage(file:///virtual/settings.json))")
  }

  /// One file with two throttles is a programmer error, reported once, naming both.
  @Test func oneFileWithTwoThrottlesIsReportedOnce() {
    @Shared(.fileStorage(url)) var count = 0
    withKnownIssue {
      @Shared(.fileStorage(url, throttle: .seconds(5))) var slow = 0
      @Shared(.fileStorage(url, throttle: .seconds(5))) var alsoSlow = 0
    } matching: {
      $0.description.contains("two throttles: 0.0 seconds and 5.0 seconds")
    }
  }

  /// The bytes older swift-sharing versions wrote to create a file before watching it hold no
  /// value, and are emptied, as swift-sharing empties them.
  @Test func swiftSharingStubIsNoValueAndIsEmptied() {
    storage.simulateExternalWrite(bytes("co.pointfree.Sharing.FileStorage.stub"), to: url)
    @Shared(.fileStorage(url)) var count = 42
    #expect(count == 42)
    #expect($count.loadError == nil)
    #expect(storage.contents(of: url) == Data())
  }

  /// As in swift-sharing, a test reads the file right after a change.
  @Test func firstChangeIsInTheFileWhenWithLockReturns() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("count.json")
      withDependencies {
        $0.defaultFileStorage = .fileSystem
      } operation: {
        @Shared(.fileStorage(url)) var count = 0
        $count.withLock { $0 = 1 }
        #expect(fileText(url) == "1")
      }
      FileStorage.fileSystem.flushPendingWritesAndWait()
    }
  }
}

struct Settings: Codable, Equatable {
  var name: String
  var isOn: Bool
}
