import SharingCore
import SharingDependencies

/// Heap bytes held per shared value, measured with the allocator's own statistics.
func memorySuite() -> Suite {
  let store = DictionaryStore()
  return Suite(
    name: "SharingCore: heap bytes per value",
    unit: .bytes,
    benchmarks: [
      Benchmark(
        name: "Shared(value: Int)",
        workload: bytesPerValue { Shared(value: $0) },
        baselineName: "MutexBox<Int>",
        baseline: bytesPerValue { MutexBox($0) },
        target: .none
      ),
      Benchmark(
        name: "Shared(value: Int), read once",
        workload: bytesPerValue { index in
          let shared = Shared(value: index)
          blackHole(shared.wrappedValue)
          return shared
        },
        baselineName: "MutexBox<Int>",
        baseline: bytesPerValue { MutexBox($0) },
        target: .none
      ),
      Benchmark(
        name: "Shared(key) on a new key",
        workload: keyedBytes(store: store),
        baselineName: "Mutex registry entry",
        baseline: floorKeyedBytes(store: store),
        target: .none
      ),
    ],
    notes: [
      "Bytes of live malloc blocks (glibc `mallinfo2`) before and after creating 10,000",
      "values into an array reserved beforehand, divided by 10,000. Keyed values include",
      "their share of a fresh registry's dictionary and the key's name (\"k1-1234\" fits",
      "in a small string: no allocation).",
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

private func keyedBytes(store: DictionaryStore) -> Workload {
  var run = 0
  return .batch(of: 10_000) { count in
    run += 1
    let keys = (0..<count).map { DictionaryKey(name: "k\(run % 10)-\($0)", store: store) }
    var values: [Shared<Int>] = []
    values.reserveCapacity(count)
    return withDependencies {
      $0.persistentReferences = PersistentReferences()
    } operation: {
      let before = allocatedBytes()
      for key in keys { values.append(Shared(wrappedValue: 0, key)) }
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
    let names = (0..<count).map { "k\(run % 10)-\($0)" }
    var values: [MutexBox<Int>] = []
    values.reserveCapacity(count)
    let registry = MutexRegistry()
    let before = allocatedBytes()
    for name in names { values.append(registry.box(for: name, in: store, default: 0)) }
    let after = allocatedBytes()
    blackHole(values)
    blackHole(registry)
    return UInt64(max(0, after - before))
  }
}
