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
    keys = DefaultsKeys(store: store, fileError: nil)
  }

  @Test func aWriteIsPlayedBackToOtherSubscriptionsOnlyWhenTheValueChanged() {
    call(keys.store(0, forKey: "count", by: ObjectIdentifier(first)))
    subscribe("count", by: first, calling: "first")
    subscribe("count", by: second, calling: "second")
    subscribe("other", by: second, calling: "other")
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    #expect(told.withLock { $0 } == ["second"])
    call(keys.change(forKey: "count", isRemoval: false) { store.base.set(1, forKey: "count") })
    #expect(told.withLock { $0 } == ["second"])
    call(keys.change(forKey: "count", isRemoval: false) { store.base.set(2, forKey: "count") })
    #expect(told.withLock { $0 } == ["second", "first", "second"])
  }

  @Test func aSynchronizationTellsTheSubscriptionsWhoseValueChanged() {
    subscribe("a", by: first, calling: "a")
    subscribe("b", by: first, calling: "b")
    // NB: Another store object of the suite, as a synchronization would bring in the file's.
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
  /// held, older than the file, was not written, and is stored again.
  @Test func aKeyThatASynchronizationDidNotWriteIsStoredAgain() {
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    let written = keys.unsynchronizedStillStored()
    UserDefaults(suiteName: suite)?.set(2, forKey: "count")
    #expect(keys.storeAgainIfLost(written.keys))
    #expect(store.base.integer(forKey: "count") == 1)
    #expect(!keys.storeAgainIfLost(written.keys))
    call(keys.synchronized(to: nil, writing: written))
    #expect(keys.unsynchronizedStillStored().isEmpty)
  }

  @Test func aKeyChangedSinceThroughAnotherStoreObjectIsNotStoredAgain() {
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    UserDefaults(suiteName: suite)?.set(4, forKey: "count")
    #expect(keys.unsynchronizedStillStored().isEmpty)
    #expect(store.base.integer(forKey: "count") == 4)
  }

  @Test func aKeyStoredAgainDuringASynchronizationIsWrittenByTheNextOne() {
    call(keys.store(1, forKey: "count", by: ObjectIdentifier(first)))
    let written = keys.unsynchronizedStillStored()
    call(keys.store(2, forKey: "count", by: ObjectIdentifier(first)))
    call(keys.synchronized(to: nil, writing: written))
    #expect(keys.unsynchronizedStillStored()["count"]?.value == .integer(2))
  }

  @Test func aStoreThatTakesLongToWriteIsWrittenLessOften() {
    #expect(keys.interval(atLeast: .milliseconds(50)) == .milliseconds(50))
    call(keys.synchronized(to: nil, in: .milliseconds(400)))
    #expect(keys.interval(atLeast: .milliseconds(50)) == .milliseconds(1_600))
  }

  final class Writer: Sendable {}
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
