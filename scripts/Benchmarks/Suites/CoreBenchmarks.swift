import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// A value two levels deep, for derived shared values.
struct Outer: Sendable {
  var middle = Middle()
}

struct Middle: Sendable {
  var count = 0
}

/// The paths programs take: reads and writes of shared values that have been read before,
/// so that Swift Observation's registrar exists, as it does for any value that is displayed.
func coreSuite() -> Suite {
  let floor = LockedBox(0)
  let floorRead = Workload.loop { count in
    var sum = 0
    for _ in 0..<count { sum &+= floor.read() }
    blackHole(sum)
  }
  let observable = ObservableCounter()
  blackHole(observable.read())

  let shared = Shared(value: 0)
  blackHole(shared.wrappedValue)
  let directIncrement = increments(of: shared)

  let root = Shared(value: Outer())
  let derived = root.middle.count
  blackHole(derived.wrappedValue)

  let reader = SharedReader(shared)

  let inMemory = Shared(wrappedValue: 0, InMemoryKey<Int>.inMemory("benchmark.count"))
  blackHole(inMemory.wrappedValue)

  let url = makeBenchmarkDirectory("operations").appendingPathComponent("count.json")
  let onFile = withDependencies {
    $0.defaultFileStorage = .fileSystem
  } operation: {
    Shared(wrappedValue: 0, FileStorageKey<Int>.fileStorage(url))
  }
  blackHole(onFile.wrappedValue)

  return Suite(
    name: "Shared values read before",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "read Shared(value:)",
        workload: reads(of: shared),
        baselineName: "NSLock box read",
        baseline: floorRead,
        target: .ratio(1.5)
      ),
      Benchmark(
        name: "Shared(value:) withLock { $0 += 1 }",
        workload: directIncrement,
        baselineName: "@Observable NSLock box += 1",
        baseline: .loop { count in
          for _ in 0..<count { observable.increment() }
        },
        target: .ratio(2)
      ),
      Benchmark(
        name: "read SharedReader",
        workload: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= reader.wrappedValue }
          blackHole(sum)
        },
        baselineName: "NSLock box read",
        baseline: floorRead,
        target: .ratio(1.5)
      ),
      Benchmark(
        name: "read $a.middle.count",
        workload: reads(of: derived),
        baselineName: "read Shared(value:)",
        baseline: reads(of: shared),
        target: .ratio(2)
      ),
      Benchmark(
        name: "$a.middle.count.withLock { $0 += 1 }",
        workload: increments(of: derived),
        baselineName: "Shared(value:) += 1",
        baseline: directIncrement,
        target: .ratio(2)
      ),
      Benchmark(
        name: "read @Shared(.inMemory(\"k\"))",
        workload: reads(of: inMemory),
        baselineName: "NSLock box read",
        baseline: floorRead,
        target: .none
      ),
      Benchmark(
        name: "@Shared(.inMemory(\"k\")) withLock { $0 += 1 }",
        workload: increments(of: inMemory),
        baselineName: "Shared(value:) += 1",
        baseline: directIncrement,
        target: .ratio(3)
      ),
      Benchmark(
        name: "@Shared(.fileStorage(url)) withLock { $0 += 1 }",
        workload: increments(of: onFile),
        baselineName: "Shared(value:) += 1",
        baseline: directIncrement,
        target: .none
      ),
    ],
    notes: [
      "Every shared value was read once before (a program reads what it shares), so its",
      "writes pay Swift Observation's `willSet`/`didSet`, as those of the `@Observable` floor",
      "do. Floors are classes of the benchmark whose methods are never inlined; \"Shared(value:)\"",
      "baselines are the rows above. The file is written at most once a second, on its own",
      "queue, while the loop runs.",
    ]
  )
}

/// Writes to shared values nobody has read: they skip Swift Observation entirely.
func neverReadSuite() -> Suite {
  let floor = LockedBox(0)
  let direct = Shared(value: 0)
  let directIncrement = increments(of: direct)
  let derived = Shared(value: Outer()).middle.count
  let inMemory = Shared(wrappedValue: 0, InMemoryKey<Int>.inMemory("benchmark.never-read"))
  return Suite(
    name: "Shared values never read",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "Shared(value:) withLock { $0 += 1 }",
        workload: directIncrement,
        baselineName: "NSLock box += 1",
        baseline: .loop { count in
          for _ in 0..<count { floor.withLock { $0 &+= 1 } }
        },
        target: .ratio(2)
      ),
      Benchmark(
        name: "$a.middle.count.withLock { $0 += 1 }",
        workload: increments(of: derived),
        baselineName: "Shared(value:) += 1",
        baseline: directIncrement,
        target: .ratio(2)
      ),
      Benchmark(
        name: "@Shared(.inMemory(\"k\")) withLock { $0 += 1 }",
        workload: increments(of: inMemory),
        baselineName: "Shared(value:) += 1",
        baseline: directIncrement,
        target: .ratio(3)
      ),
    ],
    notes: [
      "Nothing can observe a value that was never read: its writes skip Observation."
    ]
  )
}

/// Reads a shared value `count` times.
func reads(of shared: Shared<Int>) -> Workload {
  .loop { count in
    var sum = 0
    for _ in 0..<count { sum &+= shared.wrappedValue }
    blackHole(sum)
  }
}

/// Increments a shared value `count` times.
func increments(of shared: Shared<Int>) -> Workload {
  .loop { count in
    for _ in 0..<count { shared.withLock { $0 &+= 1 } }
  }
}
