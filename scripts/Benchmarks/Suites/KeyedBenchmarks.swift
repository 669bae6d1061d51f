import SharingCore
import SharingDependencies

/// A value persisted by a key of the benchmark's own, which loads from and saves to a
/// dictionary at once: what SharingCore adds around a store, without a store's own costs.
func keyedSuite() -> Suite {
  let store = DictionaryStore()
  let floor = LockedBox(0)
  let keyed = Shared(wrappedValue: 0, DictionaryKey(name: "count", store: store))
  blackHole(keyed.wrappedValue)

  return Suite(
    name: "Shared(key), a key saving to a dictionary",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "read wrappedValue",
        workload: reads(of: keyed),
        baselineName: "NSLock box read",
        baseline: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= floor.read() }
          blackHole(sum)
        },
        target: .none
      ),
      Benchmark(
        name: "withLock { $0 += 1 }, saved",
        workload: increments(of: keyed),
        baselineName: "NSLock box += 1, saved",
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
    ],
    notes: [
      "The value was read before, so its writes go through Swift Observation. Each write",
      "hands the value to the key, which saves it and resumes its continuation at once.",
    ]
  )
}
