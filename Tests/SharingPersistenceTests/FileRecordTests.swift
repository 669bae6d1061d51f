import Foundation
import SharingCore
import SharingDependencies
import TestSupport
import Testing

@testable import SharingPersistence

/// What a file's state remembers of the bytes in it, and when it trusts them.
@Suite struct FileRecordTests {
  let scheduler = ManualWriteScheduler()
  let storage: FileStorage
  let url: URL
  let key: FileStorageKey<Int>

  init() {
    let storage = FileStorage.inMemory(scheduler: scheduler)
    let url = URL(fileURLWithPath: "/virtual/count.json")
    (self.storage, self.url) = (storage, url)
    key = withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      .fileStorage(url)
    }
  }

  /// In a process of its own, so that other tests do not move its memory: 20,000 more
  /// distinct files, after as many, leave no record and grow memory by less than 50 bytes a
  /// file.
  ///
  /// The growth measured does not depend on the count: 68 kB in a debug build, 230 to 270 kB
  /// under the thread sanitizer, for 20,000 files as for 40,000. With a bound per file, a
  /// larger count is no stronger, only slower: under the sanitizer, the 40,000 cycles of
  /// this test take 35 to 55 s on a loaded machine, and 200,000 took about 3 minutes.
  #if os(Linux)
    @Test func memoryDoesNotGrowOverDistinctFiles() async throws {
      let files = 20_000
      let run = await Probe.finish(
        try Probe.start(["file-records", "\(files)"]),
        timeout: .seconds(900)
      )
      #expect(run.status == 0, "\(run.standardError)")
      let words = run.standardError.split(whereSeparator: \.isWhitespace)
      let records = try #require(words.firstIndex(of: "records").map { Int(words[$0 + 1]) })
      let growth = try #require(words.firstIndex(of: "growth").map { Int(words[$0 + 1]) })
      #expect(records == 0)
      #expect(try #require(growth) < 50 * files)
    }
  #endif

  /// Creating and dropping shared values of distinct files leaves no record behind.
  @Test func recordsDoNotPileUpOverDistinctFiles() async {
    let storage = FileStorage.inMemory
    // NB: On a thread of its own: the 10,000 files take 3 s, and up to minutes under
    //     ThreadSanitizer on a loaded machine, during which a thread of the task pool would
    //     run no other test.
    await onThreadOfItsOwn {
      withDependencies {
        $0.defaultFileStorage = storage
      } operation: {
        for index in 0..<10_000 {
          let url = URL(fileURLWithPath: "/virtual/\(index).json")
          @Shared(.fileStorage(url)) var count = 0
          $count.withLock { $0 = index }
          storage.simulateExternalWrite(nil, to: url)
        }
      }
    }
    #expect(storage.fileRecordCount == 0)
  }

  /// The record of a file goes once no key holds it, no write is pending and nobody
  /// watches it; a released shared value's pending write keeps it until the write lands.
  @Test func recordIsReleasedWhenNothingNeedsIt() {
    let storage = FileStorage.inMemory(scheduler: scheduler)
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      do {
        @Shared(.fileStorage(url)) var count = 0
        $count.withLock { $0 = 1 }
        $count.withLock { $0 = 2 }
        #expect(storage.fileRecordCount == 1)
      }
      #expect(storage.fileRecordCount == 1)
      scheduler.advance(by: .seconds(1))
    }
    #expect(text(storage.contents(of: url)) == "2")
    #expect(storage.fileRecordCount == 0)
  }

  /// A key created while a change waits for the throttle, after every shared value of the
  /// file went, starts from that change rather than from the file's older content.
  @Test func keyCreatedWhileAWriteIsPendingStartsFromIt() async throws {
    await save(1, context: .didSet)
    // NB: Not awaited: the change waits for the throttle, which this test never advances.
    key.save(2, context: .didSet, continuation: SaveContinuation("save") { _ in })
    #expect(text(storage.contents(of: url)) == "1")
    let other: FileStorageKey<Int> = withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      .fileStorage(url)
    }
    let loaded = await withCheckedContinuation { loaded in
      other.load(
        context: .initialValue(0),
        continuation: LoadContinuation("load") { loaded.resume(returning: $0) }
      )
    }
    #expect(try loaded.get() == 2)
  }

  /// Unwatched, the file can change unnoticed: a write of the bytes it last held is not
  /// skipped as if they were still there.
  @Test func writeAfterAnUnnoticedChangeIsNotSkipped() async {
    await save(2)
    storage.simulateExternalWrite(bytes("5"), to: url)
    await save(2)
    #expect(text(storage.contents(of: url)) == "2")
  }

  @Test func writeAfterALoadAndAnUnnoticedChangeIsNotSkipped() async throws {
    storage.simulateExternalWrite(bytes("2"), to: url)
    let loaded = await withCheckedContinuation { loaded in
      key.load(
        context: .userInitiated,
        continuation: LoadContinuation("load") { loaded.resume(returning: $0) }
      )
    }
    #expect(try loaded.get() == 2)
    storage.simulateExternalWrite(bytes("5"), to: url)
    await save(2)
    #expect(text(storage.contents(of: url)) == "2")
  }

  /// A change made while an external one is being played back, before the shared value hears
  /// of it, ends up both in the file and in the shared value: written at once, or later, by
  /// the throttle, after the playback reached the shared value.
  @Test(arguments: [(Duration.zero, false), (.seconds(1), false), (.seconds(1), true)])
  func changeMadeDuringAPlaybackReachesTheFileAndTheValue(
    throttle: Duration,
    throttleWaits: Bool
  ) {
    // NB: Not the suite's file, which its key holds with the storage's throttle.
    let url = URL(fileURLWithPath: "/virtual/playback.json")
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let shared = Locked<Shared<Int>?>(nil)
      let hasChanged = Locked(false)
      // NB: Subscribed first, so it hears the external change before the shared value does.
      let holder = storage.holder(for: url, throttle: throttle)
      let unsubscribe = holder.record.subscribe(
        FileRecord.Subscriber(
          onChange: { _, _ in
            guard !hasChanged.withLock({ $0 }), let count = shared.withLock({ $0 }) else {
              return
            }
            hasChanged.withLock { $0 = true }
            count.withLock { $0 = 99 }
          },
          onRetry: { _ in }
        )
      )
      defer { unsubscribe() }
      @Shared(.fileStorage(url, throttle: throttle)) var count = 0
      shared.withLock { $0 = $count }
      // Written at once: the next change waits for the throttle.
      if throttleWaits { $count.withLock { $0 = 1 } }

      storage.simulateExternalWrite(bytes("7"), to: url)
      scheduler.advance()
      scheduler.advance(by: .seconds(1))

      #expect(text(storage.contents(of: url)) == "99")
      #expect(count == 99)
    }
  }

  /// A change made while an explicit load hands over what it read is newer than it: the
  /// shared value keeps the change, which is written, rather than taking the value read and
  /// writing that in its place.
  @Test func changeMadeWhileALoadIsHandedOverStaysAndIsWritten() async throws {
    // NB: Not the suite's file, which its key holds with the storage's throttle.
    let url = URL(fileURLWithPath: "/virtual/reload.json")
    // Called as the load decodes what it read: after it read, before the value has it.
    let whileDecoding = Locked<(@Sendable () -> Void)?>(nil)
    let key: FileStorageKey<Int> = withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      .fileStorage(
        url,
        decode: { data in
          whileDecoding.withLock { hook in
            defer { hook = nil }
            return hook
          }?()
          guard let value = Int(String(decoding: data, as: UTF8.self)) else {
            throw CocoaError(.coderReadCorrupt)
          }
          return value
        },
        encode: { Data("\($0)".utf8) }
      )
    }
    @Shared(key) var count = 0
    // Written at once: the next change waits for the throttle.
    $count.withLock { $0 = 1 }
    storage.simulateExternalWrite(bytes("7"), to: url)
    let shared = $count
    whileDecoding.withLock { $0 = { shared.withLock { $0 = 99 } } }

    try await $count.load()
    scheduler.advance(by: .seconds(1))

    #expect(count == 99)
    #expect(text(storage.contents(of: url)) == "99")
  }

  /// Saves through the key alone, without a shared value, so nobody watches the file.
  private func save(_ value: Int, context: SaveContext = .userInitiated) async {
    await withCheckedContinuation { saved in
      key.save(
        value,
        context: context,
        continuation: SaveContinuation("save") { _ in
          saved.resume()
        }
      )
    }
  }
}
