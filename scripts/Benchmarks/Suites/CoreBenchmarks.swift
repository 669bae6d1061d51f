import SharingCore

/// A value two levels deep, for derived shared values.
struct Outer: Sendable {
  var middle = Middle()
}

struct Middle: Sendable {
  var count = 0
}

/// Reads and writes of `Shared(value:)`, directly and through derived values.
func coreSuite() -> Suite {
  let floor = MutexBox(0)
  let floorRead = Workload.loop { count in
    var sum = 0
    for _ in 0..<count { sum &+= floor.read() }
    blackHole(sum)
  }
  let floorIncrement = Workload.loop { count in
    for _ in 0..<count { floor.withLock { $0 &+= 1 } }
  }

  let shared = Shared(value: 0)
  let directRead = Workload.loop { count in
    var sum = 0
    for _ in 0..<count { sum &+= shared.wrappedValue }
    blackHole(sum)
  }

  let neverRead = Shared(value: 0)
  let neverReadIncrement = Workload.loop { count in
    for _ in 0..<count { neverRead.withLock { $0 &+= 1 } }
  }

  let readOnce = Shared(value: 0)
  blackHole(readOnce.wrappedValue)

  let root = Shared(value: Outer())
  let derived = root.middle.count
  // NB: A root of its own: reading 'derived' arms observation on its root, and the write is
  //     compared with a write to a value never read.
  let neverReadRoot = Shared(value: Outer())
  let neverReadDerived = neverReadRoot.middle.count

  let reader = SharedReader(Shared(value: 0))

  return Suite(
    name: "SharingCore: Shared(value:)",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "read wrappedValue",
        workload: directRead,
        baselineName: "Mutex box read",
        baseline: floorRead,
        target: .ratio(1.5)
      ),
      Benchmark(
        name: "withLock { $0 += 1 }, never read",
        workload: neverReadIncrement,
        baselineName: "Mutex box += 1",
        baseline: floorIncrement,
        target: .ratio(2)
      ),
      Benchmark(
        name: "withLock { $0 += 1 }, read once",
        workload: .loop { count in
          for _ in 0..<count { readOnce.withLock { $0 &+= 1 } }
        },
        baselineName: "Mutex box += 1",
        baseline: floorIncrement,
        target: .none
      ),
      Benchmark(
        name: "read $a.middle.count",
        workload: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= derived.wrappedValue }
          blackHole(sum)
        },
        baselineName: "direct read",
        baseline: directRead,
        target: .ratio(2)
      ),
      Benchmark(
        name: "$a.middle.count.withLock { $0 += 1 }, never read",
        workload: .loop { count in
          for _ in 0..<count { neverReadDerived.withLock { $0 &+= 1 } }
        },
        baselineName: "direct += 1",
        baseline: neverReadIncrement,
        target: .none
      ),
      Benchmark(
        name: "read SharedReader",
        workload: .loop { count in
          var sum = 0
          for _ in 0..<count { sum &+= reader.wrappedValue }
          blackHole(sum)
        },
        baselineName: "Mutex box read",
        baseline: floorRead,
        target: .ratio(1.5)
      ),
    ],
    notes: [
      "Floors are `Mutex`-guarded boxes called through non-inlined methods; see",
      "scripts/Benchmarks/RESULTS.md. \"direct\" baselines are the rows above.",
      "\"read once\": the value was read before, so writes go through Swift Observation's",
      "`willSet`/`didSet` although nothing observes it.",
    ]
  )
}
