import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// A value holding a large array, for writes derived from a member (`$state.items`).
struct ItemsState: Sendable {
  var title = "items"
  var items: [Int] = []
}

/// What a small change costs as the value grows: appending one element to a shared array of
/// a million elements, compared with the same append to an array of a thousand.
func valueSizeSuite() -> Suite {
  // NB: A virtual file system whose time never moves: after the first write, every change
  //     waits in the pending write, and no thread of the storage runs while the loop does,
  //     so the counts are the same at every run.
  let storage = FileStorage.inMemory(scheduler: ManualWriteScheduler(), throttle: .seconds(3_600))
  func rows(
    _ name: String,
    _ make: @escaping (_ elements: Int) -> Shared<[Int]>
  ) -> Benchmark {
    Benchmark(
      name: "\(name), 10⁶ elements",
      workload: appends(settle: storage.flushPendingWritesAndWait) { make(1_000_000) },
      baselineName: "same, 10³ elements",
      baseline: appends(settle: storage.flushPendingWritesAndWait) { make(1_000) },
      target: .ratio(3)
    )
  }
  func onFile(_ name: String, _ elements: Int) -> URL {
    URL(filePath: "/benchmark/\(name)-\(elements).json")
  }
  return Suite(
    name: "Appending one element to a shared [Int], read before",
    unit: .nanoseconds,
    benchmarks: [
      rows("Shared(value:)") { Shared(value: Array(0..<$0)) },
      rows(".inMemory") { elements in
        Shared(wrappedValue: Array(0..<elements), .inMemory("benchmark.items.\(elements)"))
      },
      rows(".fileStorage") { elements in
        withDependencies {
          $0.defaultFileStorage = storage
        } operation: {
          Shared(
            wrappedValue: Array(0..<elements),
            .fileStorage(onFile("items", elements), decode: decodeItems, encode: encodeItems)
          )
        }
      },
      rows("$state.items, .inMemory") { elements in
        let state = Shared(
          wrappedValue: ItemsState(items: Array(0..<elements)),
          .inMemory("benchmark.state.\(elements)")
        )
        return state.items
      },
      rows("$state.items, .fileStorage") { elements in
        let state = withDependencies {
          $0.defaultFileStorage = storage
        } operation: {
          Shared(
            wrappedValue: ItemsState(items: Array(0..<elements)),
            .fileStorage(
              onFile("state", elements),
              decode: { @Sendable in ItemsState(items: try decodeItems($0)) },
              encode: { @Sendable in try encodeItems($0.items) }
            )
          )
        }
        return state.items
      },
      Benchmark(
        name: ".fileStorage withLock { $0 += 1 }, 10⁴ changes waiting",
        workload: changes(waiting: 10_000, on: storage, to: onFile("waiting", 10_000)),
        baselineName: "none waiting",
        baseline: changes(waiting: 0, on: storage, to: onFile("waiting", 0)),
        target: .ratio(1.5)
      ),
    ],
    notes: [
      "Each operation is `withLock { $0.append(i) }`; after each batch the appended elements",
      "are removed, outside the measured part. Files are on a virtual file system whose",
      "time does not move, with a one-hour throttle: a first change is written before the",
      "measured part, and later changes wait in the pending write, so no encoding runs while",
      "the loop does. Files hold the array's bytes as they are in memory: the rows measure the",
      "change, not an encoder. The last row changes an integer file whose write already",
      "waits with 10,000 changes (made before each batch, after the file is written): each",
      "change joins the waiting write, at the same cost however many wait.",
    ]
  )
}

/// Appends to a shared array, made on first use, then read and changed once; `settle`
/// waits for what that change started (the first write of a file).
private func appends(
  settle: @escaping () -> Void,
  _ make: @escaping () -> Shared<[Int]>
) -> Workload {
  let shared = Once {
    let shared = make()
    blackHole(shared.wrappedValue.count)
    shared.withLock { $0.append(0) }
    shared.withLock { _ = $0.removeLast() }
    settle()
    return shared
  }
  return .measuredPart { count in
    let shared = shared()
    let start = startMeasuring()
    for element in 0..<count { shared.withLock { $0.append(element) } }
    let spent = cost(since: start)
    shared.withLock { $0.removeLast(count) }
    return spent
  }
}

/// Changes of an integer file whose write waits, each batch made after `waiting` changes
/// that wait in it already: a change costs the same however many wait.
private func changes(waiting: Int, on storage: FileStorage, to url: URL) -> Workload {
  let shared = Once {
    let shared = withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      Shared(wrappedValue: 0, .fileStorage(url))
    }
    shared.withLock { $0 += 1 }
    return shared
  }
  return .measuredPart { count in
    let shared = shared()
    storage.flushPendingWritesAndWait()
    for _ in 0..<waiting { shared.withLock { $0 &+= 1 } }
    let start = startMeasuring()
    for _ in 0..<count { shared.withLock { $0 &+= 1 } }
    return cost(since: start)
  }
}

/// The bytes of an array of integers, as they are in memory.
@Sendable private func encodeItems(_ items: [Int]) throws -> Data {
  items.withUnsafeBytes { Data($0) }
}

@Sendable private func decodeItems(_ data: Data) throws -> [Int] {
  data.withUnsafeBytes { Array($0.bindMemory(to: Int.self)) }
}
