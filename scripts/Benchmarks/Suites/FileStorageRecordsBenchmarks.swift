import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// What a program keeps after creating and dropping shared values on many distinct files.
func fileStorageRecordsSuite() -> Suite {
  let growth = Once { memoryGrowth(cycles: cycles) }
  return Suite(
    name: "fileStorage, 100,000 shared values on distinct files, each created and dropped",
    unit: .bytes,
    benchmarks: [
      Benchmark(
        name: "live heap growth per cycle",
        workload: .value { Double(growth().heap) / Double(cycles) },
        baselineName: "—",
        baseline: nil,
        target: .none
      ),
      Benchmark(
        name: "resident set growth per cycle",
        workload: .value { Double(growth().resident) / Double(cycles) },
        baselineName: "—",
        baseline: nil,
        target: .none
      ),
    ],
    notes: [
      "Each cycle creates `@Shared(.fileStorage(url))` on a file of its own that does not",
      "exist (on the real disk) and drops it. Growth is measured after the cycles, from",
      "glibc's `mallinfo2` (live malloc blocks) and `/proc/self/statm` (resident pages).",
    ]
  )
}

private let cycles = 100_000

private func memoryGrowth(cycles: Int) -> (heap: Int, resident: Int) {
  let directory = makeBenchmarkDirectory("records")
  let urls = (0..<cycles).map { directory.appendingPathComponent("\($0).json") }
  return withDependencies {
    $0.defaultFileStorage = .fileSystem
  } operation: {
    let heap = allocatedBytes()
    let resident = residentBytes()
    for url in urls {
      let shared = Shared(wrappedValue: 0, .fileStorage(url))
      blackHole(shared)
    }
    return (allocatedBytes() - heap, residentBytes() - resident)
  }
}
