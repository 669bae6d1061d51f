import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// Reads and writes of persisted values, per operation: in memory, and on a file whose
/// writes are throttled.
func persistenceOperationSuite() -> Suite {
  let store = DictionaryStore()
  let floor = MutexBox(0)
  let floorRead = Workload.loop { count in
    var sum = 0
    for _ in 0..<count { sum &+= floor.read() }
    blackHole(sum)
  }
  let floorSavedIncrement = Workload.loop { count in
    for _ in 0..<count {
      let value = floor.withLock { value in
        value &+= 1
        return value
      }
      store.setValue(value, for: "floor")
    }
  }

  let inMemory = Shared(wrappedValue: 0, InMemoryKey<Int>.inMemory("benchmark.count"))
  let url = makeBenchmarkDirectory("operations").appendingPathComponent("count.json")
  let onFile = withDependencies {
    $0.defaultFileStorage = .fileSystem
  } operation: {
    Shared(wrappedValue: 0, FileStorageKey<Int>.fileStorage(url))
  }
  blackHole(inMemory.wrappedValue)
  blackHole(onFile.wrappedValue)

  return Suite(
    name: "SharingPersistence: .inMemory and .fileStorage, per operation",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: ".inMemory read wrappedValue",
        workload: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= inMemory.wrappedValue }
          blackHole(sum)
        },
        baselineName: "Mutex box read",
        baseline: floorRead,
        target: .none
      ),
      Benchmark(
        name: ".inMemory withLock { $0 += 1 }",
        workload: .loop { count in
          for _ in 0..<count { inMemory.withLock { $0 &+= 1 } }
        },
        baselineName: "Mutex box += 1, saved",
        baseline: floorSavedIncrement,
        target: .none
      ),
      Benchmark(
        name: ".fileStorage withLock { $0 += 1 }, throttled",
        workload: .loop { count in
          for _ in 0..<count { onFile.withLock { $0 &+= 1 } }
        },
        baselineName: "Mutex box += 1, saved",
        baseline: floorSavedIncrement,
        target: .none
      ),
    ],
    notes: [
      "Both values were read before, so their writes go through Swift Observation, as those",
      "of the keyed suite do. The file is written at most once a second, on its own queue,",
      "while the loop runs: a write's cost lands on the loop only through the shared cores.",
    ]
  )
}
