import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Values of the wrong type in user defaults, for every type `appStorage` supports: the
/// default value is used, a load error names the key, and the stored value is left as it is
/// until the shared value changes, which first copies it to `<key>.corrupt-<UTC timestamp>`.
@Suite struct CorruptDefaultsTests {
  @Dependency(\.defaultAppStorage) var store

  var list: [Int] { [1, 2] }
  var dictionary: [String: Int] { ["a": 1] }

  @Test func bool() {
    expectIgnored(["true", 2.5, Data([1]), Date(), list, dictionary], default: false) {
      .appStorage($0)
    }
  }

  @Test func int() {
    expectIgnored(["42", 4.5, Data([1]), Date(), list, dictionary], default: 7) {
      .appStorage($0)
    }
  }

  @Test func double() {
    expectIgnored(["1.5", Data([1]), Date(), list, dictionary], default: 0.5) {
      .appStorage($0)
    }
  }

  @Test func string() {
    expectIgnored([42, true, Data("text".utf8), Date(), list, dictionary], default: "x") {
      .appStorage($0)
    }
  }

  @Test func url() {
    let fallback = URL(string: "https://example.com")!
    expectIgnored(["not a url", 42, Data([1]), Date(), list, dictionary], default: fallback) {
      .appStorage($0)
    }
  }

  /// Keyed archives that are not of a URL, or are malformed: Foundation's unarchiver on
  /// Linux stops the program on them rather than failing.
  @Test func urlArchivesOfAnotherClassOrMalformed() throws {
    let fallback = URL(string: "https://example.com")!
    let archive = { (object: Any) in
      try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }
    let url = try archive(NSURL(string: "https://example.com/a")!)
    var plist = try #require(
      try PropertyListSerialization.propertyList(from: url, format: nil) as? [String: Any]
    )
    var objects = try #require(plist["$objects"] as? [Any])
    // NB: The last object is the description of the class, NSURL.
    objects[objects.count - 1] = 42
    plist["$objects"] = objects
    let malformed = try PropertyListSerialization.data(
      fromPropertyList: plist,
      format: .binary,
      options: 0
    )
    let wrong = [
      try archive(NSArray(array: [NSURL(string: "https://a.example")!])), malformed,
      markingTheTopObjectASet(url),
    ]
    expectIgnored(wrong, default: fallback) { .appStorage($0) }

    // NB: Foundation on Linux archives a URL with a base as its absolute string.
    let relative = try #require(URL(string: "b?c#d", relativeTo: URL(string: "https://e.com/a/")))
    store.set(try archive(relative as NSURL), forKey: "relative")
    @Shared(.appStorage("relative")) var stored = fallback
    #expect(stored == relative.absoluteURL)
    #expect($stored.loadError == nil)
  }

  @Test func data() {
    expectIgnored(["bytes", 42, Date(), list, dictionary], default: Data([9])) {
      .appStorage($0)
    }
  }

  @Test func date() {
    let fallback = Date(timeIntervalSince1970: 0)
    expectIgnored(["2020-01-01", 42, Data([1]), list, dictionary], default: fallback) {
      .appStorage($0)
    }
  }

  @Test func intRawRepresentable() {
    expectIgnored([99, -1, "high", Data([1]), list, dictionary], default: Priority.low) {
      .appStorage($0)
    }
  }

  @Test func stringRawRepresentable() {
    expectIgnored(["sepia", 1, Data([1]), list, dictionary], default: Theme.light) {
      .appStorage($0)
    }
  }

  @Test func optionals() {
    expectIgnored(["42", list], default: Int?.none) { .appStorage($0) }
    expectIgnored([42, list], default: String?.none) { .appStorage($0) }
    expectIgnored(["true", list], default: Bool?.none) { .appStorage($0) }
    expectIgnored(["1.5", list], default: Double?.none) { .appStorage($0) }
    expectIgnored(["bytes", list], default: Data?.none) { .appStorage($0) }
    expectIgnored(["2020", list], default: Date?.none) { .appStorage($0) }
    expectIgnored(["not a url", list], default: URL?.none) { .appStorage($0) }
    expectIgnored(["sepia", list], default: Theme?.none) { .appStorage($0) }
    expectIgnored([99, list], default: Priority?.none) { .appStorage($0) }
    expectIgnored([Data("{".utf8), list], default: Layout?.none) { .appStorage($0) }
  }

  @Test func codable() {
    let wrong: [Any] = [
      Data("not json".utf8), Data(#"{"columns":"two","title":"Home"}"#.utf8), Data(),
      #"{"columns":2,"title":"Home"}"#, 42, list, dictionary,
    ]
    expectIgnored(wrong, default: Layout(columns: 1, title: "Default")) { .appStorage($0) }
  }

  /// JSON data that no longer decodes as the key's type (a field was added) is a load error,
  /// and is kept before the key is written.
  @Test func undecodableCodableValueIsALoadErrorAndIsKept() throws {
    let original = bytes(#"{"columns":3}"#)
    store.set(original, forKey: "layout")
    @Shared(.appStorage("layout")) var layout = Layout(columns: 1, title: "Default")
    #expect(layout == Layout(columns: 1, title: "Default"))
    let error = try #require($layout.loadError)
    #expect(error is DecodingError)
    #expect(store.data(forKey: "layout") == original)
    $layout.withLock { $0.title = "Home" }
    let kept = try #require(keptKeys(of: "layout").first)
    #expect(keptKeys(of: "layout").count == 1)
    #expect(store.data(forKey: kept) == original)
    #expect(text(store.data(forKey: "layout")) == #"{"columns":1,"title":"Home"}"#)
  }

  @Test func undecodableOptionalCodableValueIsALoadErrorAndIsKept() throws {
    let original = bytes(#"{"title":"Home"}"#)
    store.set(original, forKey: "layout")
    @Shared(.appStorage("layout")) var layout: Layout? = nil
    #expect(layout == nil)
    #expect($layout.loadError != nil)
    $layout.withLock { $0 = nil }
    #expect(store.object(forKey: "layout") == nil)
    #expect(store.data(forKey: try #require(keptKeys(of: "layout").first)) == original)
  }

  /// Foundation reads a property list file it cannot parse as an empty store, and replaces it
  /// at its next synchronisation: every key in it would be lost.
  @Test func unparseableStoreFileIsKeptAsideBeforeBeingRewritten() async throws {
    let (store, file) = try storeWithFile(
      Data("<?xml version=\"1.0\"?><plist><dict><key>count".utf8) + Data([0, 0xFF])
    )
    let garbage = try Data(contentsOf: file)
    @Shared(.appStorage("count", store: store)) var count = 5
    #expect(count == 5)
    let error = try #require($count.loadError)
    #expect("\(error)".contains(file.path))
    let kept = try keptFiles(of: file)
    #expect(kept.count == 1)
    #expect(try Data(contentsOf: try #require(kept.first)) == garbage)
    $count.withLock { $0 = 6 }
    try await $count.save()
    #expect(try keptFiles(of: file).count == 1)
    #expect(storedProperties(atPath: file.path)?["count"] as? Int == 6)
  }

  /// Integration test: another program leaves the file unparseable while a key is in use.
  @Test func storeFileThatBecomesUnparseableIsKeptAsideAndReported() async throws {
    let (store, file) = try storeWithFile(nil)
    @Shared(.appStorage("count", store: store)) var count = 1
    $count.withLock { $0 = 2 }
    try await $count.save()
    let garbage = Data("not a property list".utf8)
    // NB: Replaced by a rename, as editors and other programs save.
    let draft = file.appendingPathExtension("new")
    try garbage.write(to: draft)
    #expect(rename(draft.path, file.path) == 0)
    await expectEventually("the load error") { $count.loadError != nil }
    #expect(count == 2)
    #expect(try keptFiles(of: file).map { try Data(contentsOf: $0) } == [garbage])
    try await $count.save()
    #expect(storedProperties(atPath: file.path)?["count"] as? Int == 2)
    #expect(count == 2)
  }

  /// Foundation reads an unparseable store file as an empty store: the comparison that finds
  /// changes made through other store objects of the process, when it looks before the
  /// file's watch, must report the file, not tell the keys they were removed (a shared value
  /// would go back to its default, and its next write store that).
  @Test func comparisonOfChangesElsewhereReportsAnUnparseableFileRatherThanRemovedKeys() throws {
    let (store, file) = try storeWithFile(nil)
    store.set(2, forKey: "count")
    store.synchronize()
    let io = DefaultsIO(
      keys: DefaultsKeys(store: UserDefaultsBox(base: store)),
      file: DefaultsFile(path: file.path)
    )
    let told = Locked(0)
    let subscription = io.keys.subscribe(key: "count", writer: ObjectIdentifier(io.keys)) {
      told.withLock { $0 += 1 }
    }
    defer { io.keys.unsubscribe(subscription) }
    let garbage = Data("not a property list".utf8)
    let draft = file.appendingPathExtension("new")
    try garbage.write(to: draft)
    #expect(rename(draft.path, file.path) == 0)
    // NB: A store without changes drops its copy, to read the file again when next used.
    store.synchronize()
    try #require(store.object(forKey: "count") == nil, "Foundation read the file as a store")

    _ = io.playChangesElsewhere()

    #expect(told.withLock { $0 } == 1)
    guard case .failure(let error) = io.keys.object(forKey: "count") else {
      Issue.record("The key was told it holds no value, not that its file cannot be read")
      return
    }
    #expect("\(error)".contains(file.path))
    #expect(try keptFiles(of: file).map { try Data(contentsOf: $0) } == [garbage])
  }

  /// A synchronization with nothing to write leaves an unparseable file as it is: the keys
  /// still report it, rather than read Foundation's empty store as their values removed.
  @Test func synchronizingWithNothingToWriteKeepsAnUnparseableFileReported() throws {
    let (store, file) = try storeWithFile(Data("not a property list".utf8))
    let io = DefaultsIO(
      keys: DefaultsKeys(store: UserDefaultsBox(base: store)),
      file: DefaultsFile(path: file.path)
    )
    try #require(io.isUnreadable(Result(catching: { try io.file?.contents() })))

    _ = try io.write(Data(), keepingAside: nil)

    guard case .failure = io.keys.object(forKey: "count") else {
      Issue.record("The key was told it holds no value, not that its file cannot be read")
      return
    }
  }

  /// A value set directly, through a store of the package's, while the file is unparseable
  /// is written even if Foundation's copy of the store, read before, held it already.
  @Test func directSetWhileTheStoreFileIsUnparseableReachesTheDisk() async throws {
    let (store, file) = try storeWithFile(nil, observed: true)
    @Shared(.appStorage("count", store: store)) var count = 1
    $count.withLock { $0 = 2 }
    try await $count.save()
    let draft = file.appendingPathExtension("new")
    try Data("not a property list".utf8).write(to: draft)
    #expect(rename(draft.path, file.path) == 0)
    await expectEventually("the load error") { $count.loadError != nil }
    store.set(2, forKey: "count")
    await expectEventually("the value on disk") {
      storedProperties(atPath: file.path)?["count"] as? Int == 2
    }
    #expect(count == 2)
  }

  /// A suite in the directory of temporary stores, with `contents` in its file if given; a
  /// store of the package's class if `observed`, whose direct changes keys see at once.
  private func storeWithFile(
    _ contents: Data?,
    observed: Bool = false
  ) throws -> (UserDefaults, URL) {
    let suite = TemporaryUserDefaults.makeSuiteName()
    let file = URL(fileURLWithPath: suite + ".plist")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    if let contents { try contents.write(to: file) }
    let store = observed ? ObservedUserDefaults(suiteName: suite) : UserDefaults(suiteName: suite)
    return (try #require(store), file)
  }

  private func keptFiles(of file: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
      .filter { $0.hasPrefix(file.lastPathComponent + ".corrupt-") }
      .sorted()
      .map { file.deletingLastPathComponent().appendingPathComponent($0) }
  }

  /// Stores each wrong value under a key of its own, then checks that a shared value of that
  /// key holds the default, that a load error names the key, that the stored value is left as it
  /// is, and that writing the key first copies it to `<key>.corrupt-<UTC timestamp>`.
  private func expectIgnored<Value: Equatable & Sendable>(
    _ wrongValues: [Any],
    default defaultValue: Value,
    sourceLocation: SourceLocation = #_sourceLocation,
    key makeKey: (String) -> AppStorageKey<Value>
  ) {
    for (index, wrong) in wrongValues.enumerated() {
      let name = "\(Value.self) \(index)"
      store.set(wrong, forKey: name)
      let stored = StoredObject(store.object(forKey: name))
      do {
        @Shared(makeKey(name)) var value = defaultValue
        #expect(value == defaultValue, "\(wrong)", sourceLocation: sourceLocation)
        #expect(
          $value.loadError.map { "\($0)" }?.contains(String(reflecting: name)) == true
            || $value.loadError is DecodingError,
          "no load error for the wrong \(wrong)",
          sourceLocation: sourceLocation
        )
        #expect(
          StoredObject(store.object(forKey: name)) == stored,
          "the wrong \(wrong) was overwritten",
          sourceLocation: sourceLocation
        )
        $value.withLock { $0 = defaultValue }
      }
      let kept = keptKeys(of: name)
      #expect(kept.count == 1, "the wrong \(wrong) was not kept", sourceLocation: sourceLocation)
      #expect(
        kept.map { StoredObject(store.object(forKey: $0)) } == [stored],
        "the wrong \(wrong) was not kept whole",
        sourceLocation: sourceLocation
      )
      #expect(
        StoredObject(store.object(forKey: name)) != stored,
        "the key was not written",
        sourceLocation: sourceLocation
      )
    }
  }

  /// The keys holding values of `key` kept before it was overwritten.
  private func keptKeys(of key: String) -> [String] {
    store.dictionaryRepresentation().keys.filter { $0.hasPrefix("\(key).corrupt-") }.sorted()
  }
}

/// A stored object compared by its property list representation.
private struct StoredObject: Equatable {
  let description: String

  init(_ object: Any?) {
    guard let object else {
      description = "nil"
      return
    }
    let data = try? PropertyListSerialization.data(
      fromPropertyList: object,
      format: .xml,
      options: 0
    )
    description = data.map { String(decoding: $0, as: UTF8.self) } ?? String(describing: object)
  }
}

@Suite struct CorruptDefaultsRoundTripTests {
  @Dependency(\.defaultAppStorage) var store

  @Test func aWrongValueReloadedFromDiskIsStillKept() throws {
    // NB: A date with fractional seconds comes back from the property list without them.
    let wrong = Date(timeIntervalSince1970: 1_000_000.25)
    store.set(wrong, forKey: "ratio")
    @Shared(.appStorage("ratio")) var ratio = 0.5
    #expect($ratio.loadError != nil)
    // NB: Foundation on Linux rereads the store at the synchronisation after a change.
    flushPendingWritesAndWait()
    store.set(true, forKey: "unrelated")
    flushPendingWritesAndWait()
    $ratio.withLock { $0 = 1.5 }
    let kept = try #require(
      store.dictionaryRepresentation().keys.first { $0.hasPrefix("ratio.corrupt-") }
    )
    #expect(store.object(forKey: kept) is Date)
  }
}
