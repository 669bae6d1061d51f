import SharingCore
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
  @Test func concurrentIncrementsAreNeverLost() async throws {
    let count = Shared(value: 0)
    try await withWatchdog {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask {
            for _ in 0..<10_000 { count.withLock { $0 += 1 } }
          }
        }
      }
    }
    #expect(count.wrappedValue == 80_000)
  }

  @Test func concurrentDerivedWritesAndReadsStayConsistent() async throws {
    let stats = Shared(value: Stats())
    try await withWatchdog {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask {
            let count = stats.count
            for _ in 0..<2_000 { count.withLock { $0 += 1 } }
          }
          group.addTask {
            for _ in 0..<2_000 {
              let snapshot = stats.wrappedValue
              #expect(snapshot.count >= 0)
            }
          }
        }
      }
    }
    #expect(stats.wrappedValue.count == 8_000)
  }

  @Test func concurrentPersistedWritesSaveTheLatestValueLast() async throws {
    let store = TestStore<Int>()
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    try await withWatchdog {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask {
            for _ in 0..<500 { count.withLock { $0 += 1 } }
          }
        }
      }
    }
    #expect(count.wrappedValue == 4_000)
    #expect(store.value == 4_000)
  }

  @Test func concurrentCreationOfOneKeySharesOneReference() async throws {
    let store = TestStore<Int>()
    try await withWatchdog {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask {
            let count = Shared(wrappedValue: 0, .test("count", store: store))
            for _ in 0..<100 { count.withLock { $0 += 1 } }
          }
        }
      }
    }
    #expect(store.value == 800)
  }

  @Test func concurrentRedirectionsLeaveReadsAndWritesOnOneTarget() async throws {
    try await withWatchdog {
      for _ in 0..<100 {
        let shared = Shared(value: -1)
        let targets = (0..<8).map { Shared(value: $0) }
        await withTaskGroup(of: Void.self) { group in
          for target in targets {
            group.addTask { shared.projectedValue = target }
          }
        }
        let chosen = shared.wrappedValue
        #expect(targets.indices.contains(chosen))
        shared.withLock { $0 = 100 }
        #expect(targets.map(\.wrappedValue).filter { $0 == 100 }.count == 1)
        #expect(targets.indices.contains(chosen) && targets[chosen].wrappedValue == 100)
      }
    }
  }
}
