import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// A small change to a value persisted to a file costs what the change costs, not what the
/// value weighs: a write waiting for its throttle keeps no copy of the value, so changing it
/// again does not copy its storage (issue 20).
@Suite struct FileStorageCopyTests {
  let url = URL(fileURLWithPath: "/virtual/numbers.json")
  let scheduler = ManualWriteScheduler()
  let storage: FileStorage

  init() {
    storage = .inMemory(scheduler: scheduler, throttle: .seconds(1))
  }

  @Test func smallWriteDoesNotCopyTheValue() throws {
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var numbers = Array(0..<1_000)
      #expect(numbers.count == 1_000)
      // NB: The first change is written at once; the next ones wait for the throttle.
      $numbers.withLock { $0.reserveCapacity(2_000) }
      $numbers.withLock { $0.append(1_000) }
      let before = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      $numbers.withLock { $0.append(1_001) }
      let after = $numbers.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      #expect(before == after)
      scheduler.advance(by: .seconds(1))
      let saved = try JSONDecoder().decode([Int].self, from: #require(storage.contents(of: url)))
      #expect(saved == Array(0..<1_002))
    }
  }

  @Test func smallDerivedWriteDoesNotCopyTheValue() throws {
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var inventory = Inventory()
      let items = $inventory.items
      #expect(items.wrappedValue.count == 1_000)
      items.withLock { $0.reserveCapacity(2_000) }
      items.withLock { $0.append(1_000) }
      let before = items.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      items.withLock { $0.append(1_001) }
      let after = items.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      #expect(before == after)
      scheduler.advance(by: .seconds(1))
      let saved = try JSONDecoder().decode(
        Inventory.self,
        from: #require(storage.contents(of: url))
      )
      #expect(saved.items == Array(0..<1_002))
    }
  }

  @Test func smallWriteToAnElementDoesNotCopyTheCollection() throws {
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var todos = (0..<1_000).map { Todo(id: $0, title: "") }
      #expect(todos.count == 1_000)
      $todos.withLock { $0.reserveCapacity(2_000) }
      $todos[id: 500].withLock { $0?.title = "first" }
      let before = $todos.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      $todos[id: 500].withLock { $0?.title = "second" }
      let after = $todos.withLock { $0.withUnsafeBufferPointer(\.baseAddress) }
      #expect(before == after)
      scheduler.advance(by: .seconds(1))
      let saved = try JSONDecoder().decode([Todo].self, from: #require(storage.contents(of: url)))
      #expect(saved[500].title == "second")
    }
  }

  struct Inventory: Codable, Sendable {
    var name = "store"
    var items = Array(0..<1_000)
  }

  struct Todo: Codable, Identifiable, Sendable {
    let id: Int
    var title: String
  }
}
