import Observation
import SharingCore
import Synchronization

/// Writes to a value that `withObservationTracking` observers watch.
func observationSuite() -> Suite {
  Suite(
    name: "Writes under observation",
    unit: .nanoseconds,
    benchmarks: [1, 10, 100].map { observers in
      Benchmark(
        name: "track \(observers) + withLock { $0 += 1 }",
        workload: observedWrites(observers: observers),
        baselineName: "@Observable NSLock box",
        baseline: observedFloorWrites(observers: observers),
        target: .none
      )
    },
    notes: [
      "One operation: register N `withObservationTracking` observers (each reads the value;",
      "observers fire once), then write; each write fires all N.",
    ]
  )
}

private func observedWrites(observers: Int) -> Workload {
  let shared = Shared(value: 0)
  let changes = ChangeCount()
  return .loop { count in
    for _ in 0..<count {
      for _ in 0..<observers {
        withObservationTracking {
          blackHole(shared.wrappedValue)
        } onChange: {
          changes.increment()
        }
      }
      shared.withLock { $0 &+= 1 }
    }
    blackHole(changes.value)
  }
}

private func observedFloorWrites(observers: Int) -> Workload {
  let box = ObservableCounter()
  let changes = ChangeCount()
  return .loop { count in
    for _ in 0..<count {
      for _ in 0..<observers {
        withObservationTracking {
          blackHole(box.read())
        } onChange: {
          changes.increment()
        }
      }
      box.increment()
    }
    blackHole(changes.value)
  }
}

/// Counts observer notifications, so that they cannot be optimised away.
private final class ChangeCount: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }
  func increment() { count.add(1, ordering: .relaxed) }
}
