import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Everything a key can do survives pairing it with a default (`.Default`), which wraps it:
/// each capability is a requirement of the key protocols, forwarded by every wrapping key.
@Suite struct KeyCapabilitiesTests {
  let scheduler = ManualWriteScheduler()
  let storage: FileStorage
  let url = URL(fileURLWithPath: "/capabilities/value.json")

  init() {
    storage = .inMemory(scheduler: scheduler, throttle: .seconds(1))
  }

  @Test func aCoordinatedFileKeyWithADefaultWritesEveryChange() {
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let key = CoordinatedFileStorageKey<Int>.Default[.fileStorage(url, .coordinated), default: 0]
      @Shared(key) var count
      $count.withLock { $0 += 1 }
      #expect(text(storage.contents(of: url)) == "1")
      storage.simulateExternalWrite(bytes("10"), to: url)
      $count.withLock { $0 += 1 }
      #expect(count == 11)
      #expect(text(storage.contents(of: url)) == "11")
    }
  }

  @Test func aFileKeyWithADefaultReadsTheValueWhenWritingIt() throws {
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let key = FileStorageKey<[Int]>.Default[.fileStorage(url), default: Array(0..<1_000)]
      @Shared(key) var numbers
      #expect(numbers.count == 1_000)
      // NB: The first change is written at once; the next ones wait for the throttle.
      $numbers.withLock { $0.reserveCapacity(2_000) }
      $numbers.withLock { $0.append(1_000) }
      let before = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      $numbers.withLock { $0.append(1_001) }
      let after = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      #expect(before == after, "a write waiting for the throttle kept a copy of the value")
      scheduler.advance(by: .seconds(1))
      let saved = try JSONDecoder().decode([Int].self, from: #require(storage.contents(of: url)))
      #expect(saved == Array(0..<1_002))
    }
  }

  @Test func everyShippedKeyKeepsItsCapabilitiesWithADefault() {
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      expectCapabilitiesSurviveADefault(
        of: FileStorageKey<Int>.fileStorage(url),
        isCoordinated: false,
        keepsReferences: false
      )
      expectCapabilitiesSurviveADefault(
        of: CoordinatedFileStorageKey<Int>.fileStorage(url, .coordinated),
        isCoordinated: true,
        keepsReferences: false
      )
      expectCapabilitiesSurviveADefault(
        of: AppStorageKey<Int>.appStorage("count"),
        isCoordinated: false,
        keepsReferences: false
      )
      expectCapabilitiesSurviveADefault(
        of: InMemoryKey<Int>.inMemory("count"),
        isCoordinated: false,
        keepsReferences: true
      )
    }
  }

  @Test func aKeyWithADefaultIsHandedTheValueToReadWhenWriting() {
    let log = CallLog()
    @Shared(RecordingKey.Default[RecordingKey(log: log), default: 0]) var value
    $value.withLock { $0 += 1 }
    #expect(log.calls == ["load", "subscribe", "save(reading:)"])
    #expect(value == 1)
  }

  @Test func aKeyWithADefaultRunsChangesAsTransactionsOfItsKey() {
    let log = CallLog()
    @Shared(RecordingCoordinatedKey.Default[RecordingCoordinatedKey(log: log), default: 0])
    var value
    $value.withLock { $0 += 1 }
    #expect(log.calls == ["load", "subscribe", "transaction"])
    #expect(value == 1)
  }

  @Test func anInMemoryKeyWithADefaultIsKeptByItsStore() {
    withDependencies {
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      do {
        @Shared(InMemoryKey<Int>.Default[.inMemory("kept"), default: 1]) var kept
        $kept.withLock { $0 += 1 }
      }
      @Shared(.inMemory("kept")) var later = 0
      #expect(later == 2)
    }
  }
}

/// Checks, for one shipped key, that pairing it with a default keeps its identity, its
/// transactions and the store that keeps its references.
private func expectCapabilitiesSurviveADefault<Key: SharedKey>(
  of key: Key,
  isCoordinated: Bool,
  keepsReferences: Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) where Key.Value == Int {
  let paired = Key.Default[key, default: 0]
  #expect(paired.id == key.id, sourceLocation: sourceLocation)
  #expect((key._coordinatedKey != nil) == isCoordinated, sourceLocation: sourceLocation)
  #expect((paired._coordinatedKey != nil) == isCoordinated, sourceLocation: sourceLocation)
  #expect((key._referenceStore != nil) == keepsReferences, sourceLocation: sourceLocation)
  #expect((paired._referenceStore != nil) == keepsReferences, sourceLocation: sourceLocation)
  @Shared(paired) var viaDefault
  @Shared(key) var direct = 0
  $viaDefault.withLock { $0 = 7 }
  #expect(direct == 7, "\(key) and its '.Default' share one value", sourceLocation: sourceLocation)
}

/// The calls a recording key received, in order.
private final class CallLog: Sendable {
  private let entries = Locked<[String]>([])
  var calls: [String] { entries.withLock { $0 } }
  func record(_ call: String) { entries.withLock { $0.append(call) } }
}

/// A key that records what it is asked to do.
private struct RecordingKey: SharedKey {
  let log: CallLog
  var id: ObjectIdentifier { ObjectIdentifier(log) }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    log.record("load")
    continuation.resumeReturningInitialValue()
  }

  func subscribe(
    context: LoadContext<Int>,
    subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    log.record("subscribe")
    return SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    log.record("save")
    continuation.resume()
  }

  func save(
    reading value: @escaping @Sendable () -> Int,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    log.record("save(reading:)")
    continuation.resume()
  }
}

/// A coordinated key that records what it is asked to do.
private struct RecordingCoordinatedKey: CoordinatedSharedKey {
  let base: RecordingKey

  init(log: CallLog) {
    base = RecordingKey(log: log)
  }

  var id: ObjectIdentifier { base.id }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Int>,
    subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }

  func withTransaction(_ value: inout Int, _ body: (inout Int) throws -> Void) throws {
    base.log.record("transaction")
    try body(&value)
  }
}
