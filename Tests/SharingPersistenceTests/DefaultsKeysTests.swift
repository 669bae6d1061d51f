import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// Which subscriptions of a user defaults store hear of a change, and what a
/// synchronization must write again: no file, no clock.
@Suite struct DefaultsKeysTests {
  let told = Locked<[String]>([])
  let suite = TemporaryUserDefaults.makeSuiteName()
  let store: UserDefaultsBox
  let keys: DefaultsKeys
  let first = Writer()
  let second = Writer()

  init() throws {
    store = UserDefaultsBox(base: try #require(ObservedUserDefaults(suiteName: suite)))
    keys = DefaultsKeys(store: store)
  }

  @Test func aWriteIsPlayedBackToOtherSubscriptionsOnlyWhenTheValueChanged() {
    call(keys.store(0, forKey: "count", by: ObjectIdentifier(first)))
    subscribe("count", by: first, calling: "first")
    subscribe("count", by: second, calling: "second")
    subscribe("other", by: second, calling: "other")
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    #expect(told.withLock { $0 } == ["second"])
    call(keys.store(1, forKey: "count"))
    #expect(told.withLock { $0 } == ["second"])
    call(keys.store(2, forKey: "count"))
    #expect(told.withLock { $0 } == ["second", "first", "second"])
  }

  @Test func aSynchronizationTellsTheSubscriptionsWhoseValueChanged() {
    subscribe("a", by: first, calling: "a")
    subscribe("b", by: first, calling: "b")
    // Another store object of the suite, as a synchronization would bring in the file's.
    UserDefaults(suiteName: suite)?.set(5, forKey: "b")
    call(keys.synchronized(to: nil))
    #expect(told.withLock { $0 } == ["b"])
    call(keys.synchronized(to: nil))
    #expect(told.withLock { $0 } == ["b"])
  }

  @Test func aFileThatCannotBeReadIsToldToEverySubscriptionOnceAndSoIsItsRecovery() {
    subscribe("a", by: first, calling: "a")
    subscribe("b", by: first, calling: "b")
    call(keys.fileFailed(Denied()))
    call(keys.fileFailed(Denied()))
    #expect(told.withLock { $0 } == ["a", "b"])
    #expect(throws: Denied.self) { try keys.object(forKey: "a").get() }
    call(keys.synchronized(to: nil))
    #expect(told.withLock { $0 } == ["a", "b", "a", "b"])
  }

  @Test func aKeysOwnWriteIsNotPlayedBackAfterTheStoreIsSynchronized() {
    subscribe("count", by: first, calling: "first")
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    call(keys.synchronized(to: nil))
    #expect(told.withLock { $0 } == [])
  }

  /// Foundation writes only the keys it saw change: a key set to what its copy of the store
  /// held, older than the file, is a change all the same.
  @Test func aKeySetToWhatAnOutdatedCopyHeldIsWritten() throws {
    let file = DefaultsFile(path: suite + ".plist")
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    _ = try DefaultsSynchronizer.shared.synchronize(keys, file)
    try PropertyListSerialization.data(fromPropertyList: ["count": 2], format: .xml, options: 0)
      .write(to: file.url)
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    let written = try DefaultsSynchronizer.shared.synchronize(keys, file).contents
    #expect(try propertyList(written)["count"] as? Int == 1)
  }

  @Test func aSynchronizationReadsOnlyTheKeysWhoseBytesChanged() throws {
    let reads = try #require(ReadCountingDefaults(suiteName: suite))
    let keys = DefaultsKeys(store: UserDefaultsBox(base: reads))
    _ = keys.subscribe(key: "a", writer: ObjectIdentifier(first)) {}
    _ = keys.subscribe(key: "b", writer: ObjectIdentifier(first)) {}
    _ = keys.synchronized(to: try xml(["a": 1, "b": 1]))
    reads.keys.withLock { $0 = [] }
    _ = keys.synchronized(to: try xml(["a": 1, "b": 2]))
    #expect(reads.keys.withLock { $0 } == ["b"])
  }

  @Test func aKeysOwnWriteIsNotReadBackAfterASynchronization() throws {
    let reads = try #require(ReadCountingDefaults(suiteName: suite))
    let keys = DefaultsKeys(store: UserDefaultsBox(base: reads))
    _ = keys.subscribe(key: "a", writer: ObjectIdentifier(first)) {}
    _ = keys.synchronized(to: try xml(["a": 1]))
    _ = keys.store(2, forKey: "a", by: ObjectIdentifier(first))
    reads.keys.withLock { $0 = [] }
    _ = keys.synchronized(to: try xml(["a": 2]), writing: keys.changesToWrite(over: nil))
    #expect(reads.keys.withLock { $0 } == [])
    #expect(keys.changesToWrite(over: nil).isEmpty)
  }

  @Test func aChangeMadeDuringASynchronizationIsWrittenByTheNextOne() {
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    let written = keys.changesToWrite(over: nil)
    call(keys.store(nil, forKey: "count", by: ObjectIdentifier(first)))
    call(keys.synchronized(to: nil, writing: written))
    #expect(keys.changesToWrite(over: nil) == ["count": true])
  }

  /// Reading a large value takes Foundation long: only small ones are compared often.
  @Test func onlySmallValuesAreComparedForChangesMadeElsewhere() {
    subscribe("small", by: first, calling: "small")
    subscribe("large", by: first, calling: "large")
    call(keys.store(Data(count: 5_000), forKey: "large", by: ObjectIdentifier(second)))
    told.withLock { $0 = [] }
    let other = UserDefaults(suiteName: suite)
    other?.set(1, forKey: "small")
    other?.set(Data(count: 6_000), forKey: "large")
    call(keys.synchronized(to: nil, writing: keys.changesToWrite(over: nil)))
    told.withLock { $0 = [] }
    call(keys.compareSmallValuesChangedElsewhere())
    #expect(told.withLock { $0 } == [])
    other?.set(2, forKey: "small")
    call(keys.compareSmallValuesChangedElsewhere())
    #expect(told.withLock { $0 } == ["small"])
  }

  /// Until the package's own changes are written, values changed elsewhere wait for the
  /// write, which compares what changed, rather than having the store copied for a read.
  @Test func valuesChangedElsewhereAreNotComparedWhileChangesWait() {
    subscribe("small", by: first, calling: "small")
    call(keys.store(1, forKey: "other", by: ObjectIdentifier(first)))
    UserDefaults(suiteName: suite)?.set(2, forKey: "small")
    #expect(keys.compareSmallValuesChangedElsewhere().isEmpty)
    call(keys.synchronized(to: nil, writing: keys.changesToWrite(over: nil)))
    #expect(told.withLock { $0 } == ["small"])
  }

  @Test func aStoreThatTakesMuchWorkToWriteIsWrittenLessOften() {
    #expect(keys.interval(atLeast: .milliseconds(50)) == .milliseconds(50))
    call(keys.synchronized(to: nil, in: .milliseconds(400)))
    #expect(keys.interval(atLeast: .milliseconds(50)) == .milliseconds(1_600))
  }

  final class Writer: Sendable {}

  /// User defaults that record the keys they are asked for.
  final class ReadCountingDefaults: UserDefaults {
    let keys = Locked<[String]>([])

    override func object(forKey defaultName: String) -> Any? {
      keys.withLock { $0.append(defaultName) }
      return super.object(forKey: defaultName)
    }
  }

  private func xml(_ plist: [String: Int]) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
  }

  private func propertyList(_ data: Data?) throws -> [String: Any] {
    let plist = try PropertyListSerialization.propertyList(from: data ?? Data(), format: nil)
    return try #require(plist as? [String: Any])
  }
  struct Denied: Error {}

  private func subscribe(_ key: String, by writer: Writer, calling name: String) {
    _ = keys.subscribe(key: key, writer: ObjectIdentifier(writer)) { [told] in
      told.withLock { $0.append(name) }
    }
  }

  private func call(_ handlers: [@Sendable () -> Void]) {
    for handler in handlers { handler() }
  }
}
