import SharingCore
import SharingDependencies

/// Shared values created from a key: reads, writes that save, and creation.
func keyedSuite() -> Suite {
  let store = DictionaryStore()
  let floor = MutexBox(0)
  let keyed = Shared(wrappedValue: 0, DictionaryKey(name: "count", store: store))

  return Suite(
    name: "SharingCore: Shared(key), key backed by a dictionary",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "read wrappedValue",
        workload: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= keyed.wrappedValue }
          blackHole(sum)
        },
        baselineName: "Mutex box read",
        baseline: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= floor.read() }
          blackHole(sum)
        },
        target: .none
      ),
      Benchmark(
        name: "withLock { $0 += 1 }, saved",
        workload: .loop { count in
          for _ in 0..<count { keyed.withLock { $0 &+= 1 } }
        },
        baselineName: "Mutex box += 1, saved",
        baseline: .loop { count in
          for _ in 0..<count {
            let value = floor.withLock { value in
              value &+= 1
              return value
            }
            store.setValue(value, for: "floor")
          }
        },
        target: .none
      ),
      Benchmark(
        name: "create 10,000 on new keys",
        workload: creations(store: store, existing: false),
        baselineName: "Mutex registry, new",
        baseline: floorCreations(store: store, existing: false),
        target: .none
      ),
      Benchmark(
        name: "create 10,000 on existing keys",
        workload: creations(store: store, existing: true),
        baselineName: "Mutex registry, found",
        baseline: floorCreations(store: store, existing: true),
        target: .none
      ),
    ],
    notes: [
      "The value is read by the first case, so its writes go through Swift Observation, as",
      "those of a persisted value that is displayed do. A save resumes its continuation at once.",
      "Creation is per value, in a fresh registry each run; \"existing\" keys are held by",
      "10,000 values created before the timed part.",
    ]
  )
}

/// Distinct key names per run, so that no run finds values a previous one left behind.
private func keyNames(run: Int, count: Int) -> [String] {
  (0..<count).map { "k\(run)-\($0)" }
}

private func creations(store: DictionaryStore, existing: Bool) -> Workload {
  var run = 0
  return .batch(of: 10_000) { count in
    run += 1
    let keys = keyNames(run: run, count: count).map { DictionaryKey(name: $0, store: store) }
    var held: [Shared<Int>] = []
    var created: [Shared<Int>] = []
    held.reserveCapacity(count)
    created.reserveCapacity(count)
    return withDependencies {
      $0.persistentReferences = PersistentReferences()
    } operation: {
      if existing {
        for key in keys { held.append(Shared(wrappedValue: 0, key)) }
      }
      let start = now()
      for key in keys { created.append(Shared(wrappedValue: 0, key)) }
      let elapsed = now() - start
      blackHole(created)
      blackHole(held)
      return elapsed
    }
  }
}

private func floorCreations(store: DictionaryStore, existing: Bool) -> Workload {
  var run = 0
  return .batch(of: 10_000) { count in
    run += 1
    let names = keyNames(run: run, count: count)
    let registry = MutexRegistry()
    var held: [MutexBox<Int>] = []
    var created: [MutexBox<Int>] = []
    held.reserveCapacity(count)
    created.reserveCapacity(count)
    if existing {
      for name in names { held.append(registry.box(for: name, in: store, default: 0)) }
    }
    let start = now()
    for name in names { created.append(registry.box(for: name, in: store, default: 0)) }
    let elapsed = now() - start
    blackHole(created)
    blackHole(held)
    return elapsed
  }
}
