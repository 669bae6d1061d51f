import SharingCore
import SharingDependencies
import SharingPersistence

/// Heap bytes held per shared value, measured with the allocator's own statistics.
func memorySuite() -> Suite {
  let store = DictionaryStore()
  return Suite(
    name: "Heap bytes per value",
    unit: .bytes,
    benchmarks: [
      Benchmark(
        name: "Shared(value: Int), read once",
        workload: bytesPerValue { index in
          let shared = Shared(value: index)
          blackHole(shared.wrappedValue)
          return shared
        },
        baselineName: "LockedBox<Int>",
        baseline: bytesPerValue { LockedBox($0) },
        target: .atMost(160)
      ),
      Benchmark(
        name: "Shared(value: Int), never read",
        workload: bytesPerValue { Shared(value: $0) },
        baselineName: "LockedBox<Int>",
        baseline: bytesPerValue { LockedBox($0) },
        target: .none
      ),
      Benchmark(
        name: "Shared(.inMemory(key)) on a new key",
        workload: inMemoryBytes(),
        baselineName: "NSLock registry entry",
        baseline: floorKeyedBytes(store: store),
        target: .none
      ),
    ],
    notes: [
      "Bytes of live malloc blocks (glibc `mallinfo2`) before and after creating 10,000",
      "values into an array reserved beforehand, divided by 10,000. Keyed values include",
      "their share of a fresh registry's and store's dictionaries; key names (\"k1-1234\")",
      "fit in a small string: no allocation.",
    ]
  )
}

private func bytesPerValue<T>(_ make: @escaping (Int) -> T) -> Workload {
  .batch(of: 10_000) { count in
    var values: [T] = []
    values.reserveCapacity(count)
    let before = allocatedBytes()
    for index in 0..<count { values.append(make(index)) }
    let after = allocatedBytes()
    blackHole(values)
    return UInt64(max(0, after - before))
  }
}

private func inMemoryBytes() -> Workload {
  var run = 0
  return .batch(of: 10_000) { count in
    run += 1
    let names = keyNames(run: run % 10, count: count)
    var values: [Shared<Int>] = []
    values.reserveCapacity(count)
    return withDependencies {
      $0.persistentReferences = PersistentReferences()
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      let before = allocatedBytes()
      for name in names { values.append(Shared(wrappedValue: 0, .inMemory(name))) }
      let after = allocatedBytes()
      blackHole(values)
      return UInt64(max(0, after - before))
    }
  }
}

private func floorKeyedBytes(store: DictionaryStore) -> Workload {
  var run = 0
  return .batch(of: 10_000) { count in
    run += 1
    let names = keyNames(run: run % 10, count: count)
    var values: [LockedBox<Int>] = []
    values.reserveCapacity(count)
    let registry = LockedRegistry()
    let before = allocatedBytes()
    for name in names { values.append(registry.box(for: name, in: store, default: 0)) }
    let after = allocatedBytes()
    blackHole(values)
    blackHole(registry)
    return UInt64(max(0, after - before))
  }
}
