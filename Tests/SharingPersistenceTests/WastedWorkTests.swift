import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Work the write path never does: encoding values that a later change replaced, writing
/// bytes the file already holds, and encoding while holding the value's lock.
@Suite struct WastedWorkTests {
  @Test func supersededValuesAreNeverEncoded() async throws {
    let encoded = Locked<[Int]>([])
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.txt")
      let key = FileStorageKey<Int>.fileStorage(
        url,
        decode: { Int(String(decoding: $0, as: UTF8.self)) ?? 0 },
        encode: { value in
          encoded.withLock { $0.append(value) }
          return Data("\(value)".utf8)
        }
      )
      @Shared(key) var count = 0
      $count.withLock { $0 += 1 }
      scheduler.advance()
      for _ in 2...10_000 { $count.withLock { $0 += 1 } }
      #expect(encoded.withLock { $0 } == [1])
      scheduler.advance(by: .seconds(1))
      #expect(encoded.withLock { $0 } == [1, 10_000])
      #expect(storage.encodeCount(to: url) == 2)
      #expect(storage.writeCount(to: url) == 2)
    }
  }

  @Test func bytesTheFileHoldsAreNotWrittenAgain() async throws {
    try await withDiskStorage { storage, scheduler, directory in
      let url = directory.file("count.json")
      try bytes("5").write(to: url)
      @Shared(.fileStorage(url)) var count = 0
      #expect(count == 5)
      $count.withLock { $0 = 5 }
      scheduler.advance()
      try await $count.save()
      #expect(storage.encodeCount(to: url) == 2)
      #expect(storage.writeCount(to: url) == 0)
      $count.withLock { $0 = 7 }
      scheduler.advance(by: .seconds(1))
      #expect(storage.writeCount(to: url) == 1)
      #expect(fileText(url) == "7")
    }
  }

  /// `withLock` writes the first change of a quiet period; a `save()` right after it has
  /// nothing new to write.
  @Test func aSaveAfterAWrittenChangeWritesNothingMore() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("numbers.json")
      @Shared(.fileStorage(url)) var numbers = Array(0..<1_000)
      $numbers.withLock { $0.append(1_000) }
      #expect(storage.writeCount(to: url) == 1)
      try await $numbers.save()
      #expect(storage.writeCount(to: url) == 1)
      #expect(try JSONDecoder().decode([Int].self, from: Data(contentsOf: url)) == Array(0...1_000))
    }
  }

  @Test func encodingDoesNotHoldTheValuesLock() async throws {
    let box = Locked<Shared<Int>?>(nil)
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("count.txt")
      let key = FileStorageKey<Int>.fileStorage(
        url,
        decode: { Int(String(decoding: $0, as: UTF8.self)) ?? 0 },
        encode: { value in
          // NB: A read from another thread would wait forever if encoding held the lock
          //     that readers take.
          let shared = box.withLock { $0 }
          let read = DispatchSemaphore(value: 0)
          Thread {
            _ = shared?.wrappedValue; read.signal()
          }.start()
          if read.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("deadlock: a reader waited for the encoding of \(value)")
          }
          return Data("\(value)".utf8)
        }
      )
      @Shared(key) var count = 0
      box.withLock { $0 = $count }
      $count.withLock { $0 = 1 }
      scheduler.advance()
      try await $count.save()
      #expect(fileText(url) == "1")
      box.withLock { $0 = nil }
    }
  }

  @Test func aReplacedChangeKeepsTheLastWritesError() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("blocked/count.json")
      // NB: A file where the parent directory should be makes every write fail, even as root.
      try bytes("").write(to: directory.file("blocked"))
      @Shared(.fileStorage(url)) var count = 0
      $count.withLock { $0 = 1 }
      scheduler.advance()
      #expect($count.saveError != nil)
      $count.withLock { $0 = 2 }
      $count.withLock { $0 = 3 }
      #expect($count.saveError != nil)

      try FileManager.default.removeItem(at: directory.file("blocked"))
      scheduler.advance(by: .seconds(1))
      #expect($count.saveError == nil)
      #expect(fileText(url) == "3")
    }
  }
}
