import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// What a burst of 10,000 changes to a value on a file costs the disk: how many times the
/// value is encoded and the file written, with the default one-second throttle.
func fileStorageBurstSuite() -> Suite {
  let bursts = Once { (0..<5).map { _ in burst() } }
  func median(_ counts: [Int]) -> Double {
    Double(counts.sorted()[counts.count / 2])
  }
  return Suite(
    name: "fileStorage, a burst of 10,000 changes",
    unit: .count,
    benchmarks: [
      Benchmark(
        name: "disk writes per burst",
        workload: .value { median(bursts().map(\.writes)) },
        baselineName: "—",
        baseline: nil,
        target: .atMost(2)
      ),
      Benchmark(
        name: "encodes per burst",
        workload: .value { median(bursts().map(\.encodes)) },
        baselineName: "—",
        baseline: nil,
        target: .atMost(2)
      ),
      Benchmark(
        name: "changes per burst",
        workload: .value { Double(burstLength) },
        baselineName: "—",
        baseline: nil,
        target: .none
      ),
    ],
    notes: [
      "Medians of 5 bursts, each on a new file holding a document of 200 items (about 40 KB",
      "of JSON), through `@Shared(.fileStorage(url))` on the real disk with the live",
      "scheduler; after each burst, `flushPendingWritesAndWait()` writes what is pending.",
    ]
  )
}

private let burstLength = 10_000

/// Makes `burstLength` changes to a document on a new file, then writes what is pending.
private func burst() -> (writes: Int, encodes: Int) {
  let url = makeBenchmarkDirectory("burst").appendingPathComponent("document.json")
  let storage = FileStorage.fileSystem(throttle: .seconds(1)).countingWrites()
  let items = makeItems(count: 200)
  withDependencies {
    $0.defaultFileStorage = storage
  } operation: {
    let document = Shared(
      wrappedValue: Document(items: items),
      FileStorageKey<Document>.fileStorage(url)
    )
    for _ in 0..<burstLength { document.withLock { $0.counter += 1 } }
  }
  storage.flushPendingWritesAndWait()
  return (storage.writeCount(to: url), storage.encodeCount(to: url))
}
