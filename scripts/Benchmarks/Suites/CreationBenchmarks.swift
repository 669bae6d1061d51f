import SharingCore
import SharingDependencies
import SharingPersistence

/// Creating shared values: for a key another value already holds, for a new key, and
/// without a key.
func creationSuite() -> Suite {
  let store = DictionaryStore()
  return Suite(
    name: "Creating shared values",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "Shared(.inMemory(key)), key already held",
        workload: inMemoryCreations(existing: true),
        baselineName: "NSLock registry, found",
        baseline: floorCreations(store: store, existing: true),
        target: .ratio(3.5)
      ),
      Benchmark(
        name: "… the same, live dependencies",
        workload: liveInMemoryCreationsOnHeldKeys(),
        baselineName: "NSLock registry, found",
        baseline: floorCreations(store: store, existing: true),
        target: .ratio(3.5)
      ),
      Benchmark(
        name: "Shared(.inMemory(key)), new key",
        workload: inMemoryCreations(existing: false),
        baselineName: "NSLock registry, new",
        baseline: floorCreations(store: store, existing: false),
        target: .ratio(5.5)
      ),
      Benchmark(
        name: "Shared(value: 0)",
        workload: .batch(of: creationCount) { count in
          var created: [Shared<Int>] = []
          created.reserveCapacity(count)
          let start = startMeasuring()
          for index in 0..<count { created.append(Shared(value: index)) }
          let spent = cost(since: start)
          blackHole(created)
          return spent
        },
        baselineName: "LockedBox(0)",
        baseline: .batch(of: creationCount) { count in
          var created: [LockedBox<Int>] = []
          created.reserveCapacity(count)
          let start = startMeasuring()
          for index in 0..<count { created.append(LockedBox(index)) }
          let spent = cost(since: start)
          blackHole(created)
          return spent
        },
        target: .none
      ),
      Benchmark(
        name: "dropping a Shared(value: 0)",
        workload: drops { Shared(value: $0) },
        baselineName: "dropping a LockedBox(0)",
        baseline: drops { LockedBox($0) },
        target: .none
      ),
    ],
    notes: [
      "Each operation creates the key (`.inMemory(name)`) and the shared value, and keeps it",
      "alive; batches of 10,000, in a fresh registry and in-memory store each. \"Already",
      "held\": 10,000 values of the same keys were created before the measured part. \"Live",
      "dependencies\": as in a program, nothing overridden: the key's store and the registry",
      "are the live ones, which keep the same 10,000 keys from batch to batch.",
      "\"Dropping\": releasing the last holder of a value, which deallocates it.",
    ]
  )
}

private let creationCount = 10_000

/// Releasing values made by `make`, each the last holder of its value.
private func drops<T>(_ make: @escaping (Int) -> T) -> Workload {
  .batch(of: creationCount) { count in
    var created = (0..<count).map(make)
    let start = startMeasuring()
    created.removeAll(keepingCapacity: true)
    return cost(since: start)
  }
}

/// Distinct key names per run, so that no run finds values a previous one left behind.
func keyNames(run: Int, count: Int) -> [String] {
  (0..<count).map { "k\(run)-\($0)" }
}

private func inMemoryCreations(existing: Bool) -> Workload {
  var run = 0
  return .batch(of: creationCount) { count in
    run += 1
    let names = keyNames(run: run, count: count)
    var held: [Shared<Int>] = []
    var created: [Shared<Int>] = []
    held.reserveCapacity(count)
    created.reserveCapacity(count)
    return withDependencies {
      $0.persistentReferences = PersistentReferences()
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      if existing {
        for name in names { held.append(Shared(wrappedValue: 0, .inMemory(name))) }
      }
      let start = startMeasuring()
      for name in names { created.append(Shared(wrappedValue: 0, .inMemory(name))) }
      let spent = cost(since: start)
      blackHole(created)
      blackHole(held)
      return spent
    }
  }
}

/// Creating shared values on keys the live in-memory store already holds, as a program does.
private func liveInMemoryCreationsOnHeldKeys() -> Workload {
  .batch(of: creationCount) { count in
    let names = (0..<count).map { "live-\($0)" }
    var created: [Shared<Int>] = []
    created.reserveCapacity(count)
    // NB: The live store keeps every key's value once created: in the first batch, this
    //     creates them; in later ones, it finds them.
    for name in names { created.append(Shared(wrappedValue: 0, .inMemory(name))) }
    created.removeAll(keepingCapacity: true)
    let start = startMeasuring()
    for name in names { created.append(Shared(wrappedValue: 0, .inMemory(name))) }
    let spent = cost(since: start)
    blackHole(created)
    return spent
  }
}

/// Creating boxes in a registry, which finds a name's box or creates it from the store.
func floorCreations(store: DictionaryStore, existing: Bool) -> Workload {
  var run = 0
  return .batch(of: creationCount) { count in
    run += 1
    let names = keyNames(run: run, count: count)
    let registry = LockedRegistry()
    var held: [LockedBox<Int>] = []
    var created: [LockedBox<Int>] = []
    held.reserveCapacity(count)
    created.reserveCapacity(count)
    if existing {
      for name in names { held.append(registry.box(for: name, in: store, default: 0)) }
    }
    let start = startMeasuring()
    for name in names { created.append(registry.box(for: name, in: store, default: 0)) }
    let spent = cost(since: start)
    blackHole(created)
    blackHole(held)
    return spent
  }
}
