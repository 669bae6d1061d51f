import Foundation
import Observation
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

@testable import SharingCore

/// Many tasks and threads creating, writing, deriving, observing and dropping shared values
/// of one persisted key at once: exact totals in memory and in the store, no deadlock, and
/// no root or subscription left once every holder is gone.
@Suite struct PersistenceStressTests {
  static let workers = 6

  /// A shared value released with a change still waiting for the throttle, and created
  /// again: the new one starts from that change, not from the file's older content.
  ///
  /// (The released reference lives on until its pending write lands, and the new shared
  /// value finds it; reading the file instead would give the older content.)
  @Test func recreatedValueStartsFromAPendingWrite() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("count.json")
      do {
        @Shared(.fileStorage(url)) var count = 0
        $count.withLock { $0 = 1 }
      }
      @Shared(.fileStorage(url)) var count = 0
      #expect(count == 1)
      scheduler.advance(by: .seconds(1))
      #expect(fileText(url) == "1")
      #expect(count == 1)
    }
  }

  @Test func inMemoryKeyUnderLoad() async throws {
    let key = InMemoryKey<Tally>.inMemory("tally")
    let tally = try await hammer(key, iterations: 2_000, keptByItsStore: true)
    #expect(tally == Tally.expected(workers: Self.workers, iterations: 2_000))
  }

  @Test func virtualFileUnderLoad() async throws {
    @Dependency(\.defaultFileStorage) var storage
    let url = URL(fileURLWithPath: "/virtual/tally.json")
    let tally = try await hammer(FileStorageKey<Tally>.fileStorage(url), iterations: 1_000)
    let expected = Tally.expected(workers: Self.workers, iterations: 1_000)
    #expect(tally == expected)
    let saved = try JSONDecoder().decode(Tally.self, from: #require(storage.contents(of: url)))
    #expect(saved == expected)
  }

  /// Integration test: the real disk, real throttling and inotify.
  @Test func realDiskUnderLoad() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("tally.json")
      let tally = try await hammer(FileStorageKey<Tally>.fileStorage(url), iterations: 300)
      let expected = Tally.expected(workers: Self.workers, iterations: 300)
      #expect(tally == expected)
      @Shared(.fileStorage(url)) var saved = Tally()
      try await $saved.save()
      #expect(try JSONDecoder().decode(Tally.self, from: Data(contentsOf: url)) == expected)
    }
  }

  /// Runs the workload on a key from tasks and threads, checks that nothing is left alive
  /// (or, for a key whose store keeps the reference, that every value used that one), and
  /// returns the value a new shared value of the key then holds.
  private func hammer<Key: SharedKey<Tally>>(
    _ key: Key,
    iterations: Int,
    keptByItsStore: Bool = false
  ) async throws -> Tally {
    let subscriptions = SubscriptionCounter()
    let counting = CountingKey(base: key, subscriptions: subscriptions)
    let roots = WeakReferences()
    let references = DependencyValues.current.persistentReferences
    let observed = Locked(0)
    try await withWatchdog {
      await runConcurrently(tasks: Self.workers / 2, threads: Self.workers / 2) { worker in
        withDependencies {
          $0.persistentReferences = references
        } operation: {
          for iteration in 0..<iterations {
            let tally = Shared(wrappedValue: Tally(), counting)
            if iteration.isMultiple(of: 25) {
              roots.append(tally.reference.root)
            }
            Tally.operation(worker, iteration, on: tally)
            if iteration.isMultiple(of: 10) {
              withObservationTracking {
                _ = tally.total.wrappedValue
              } onChange: {
                observed.withLock { $0 += 1 }
              }
            }
            #expect(tally.wrappedValue.items.map(\.id) == [0, 1, 2, 3])
          }
        }
      }
    }
    if keptByItsStore {
      // NB: The store keeps the key's one reference, which holds the value, and nothing
      //     changes the store but shared values: nothing subscribes.
      #expect(roots.count > 0 && roots.aliveCount == roots.count && subscriptions.opened == 0)
    } else {
      // NB: A reference lives until its pending writes land, at most a throttle interval.
      await expectEventually("every root released and its subscription cancelled") {
        roots.aliveCount == 0 && subscriptions.live == 0
      }
      #expect(roots.count > 0 && subscriptions.opened > 0)
    }
    return Shared(wrappedValue: Tally(), counting).wrappedValue
  }
}

/// A value with a total and identified items to reach through derived shared values.
struct Tally: Codable, Equatable, Sendable {
  var total = 0
  var items = (0..<4).map { Item(id: $0) }

  struct Item: Codable, Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  private static func kind(_ worker: Int, _ iteration: Int) -> Int {
    (worker &* 13 &+ iteration) % 4
  }

  /// The value after `workers` workers performed `iterations` operations each.
  static func expected(workers: Int, iterations: Int) -> Tally {
    var tally = Tally()
    for worker in 0..<workers {
      for iteration in 0..<iterations {
        switch kind(worker, iteration) {
        case 0, 1: tally.total += 1
        default: tally.items[iteration % 4].count += 1
        }
      }
    }
    return tally
  }

  /// Performs one operation on a shared tally, as ``expected(workers:iterations:)`` counts it.
  static func operation(_ worker: Int, _ iteration: Int, on tally: Shared<Tally>) {
    switch kind(worker, iteration) {
    case 0: tally.withLock { $0.total += 1 }
    case 1: tally.total.withLock { $0 += 1 }
    case 2: tally.items[id: iteration % 4].withLock { $0?.count += 1 }
    default: Array(tally.items)[iteration % 4].withLock { $0.count += 1 }
    }
  }
}
