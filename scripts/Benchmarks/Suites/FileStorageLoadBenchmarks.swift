import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// Loading a large file into a `@Shared` value, compared with decoding its bytes alone.
func fileStorageLoadSuite() -> Suite {
  let directory = makeBenchmarkDirectory("load")
  let plainURL = directory.appendingPathComponent("items.json")
  let versionedURL = directory.appendingPathComponent("items-v2.json")
  let bytes = Once {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let bytes = try! encoder.encode(makeItems(count: itemCount))
    try! bytes.write(to: plainURL)
    // NB: What a key at version 2 writes: the same JSON in an envelope.
    try! (Data(#"{"$version":2,"value":"#.utf8) + bytes + Data("}".utf8)).write(to: versionedURL)
    return bytes
  }
  let decode = Workload.batch(of: 1) { _ in
    let bytes = bytes()
    let start = startMeasuring()
    let items = try! JSONDecoder().decode([Item].self, from: bytes)
    let elapsed = cost(since: start)
    blackHole(items)
    return elapsed
  }
  return Suite(
    name: "fileStorage, loading 10 MB of JSON",
    unit: .milliseconds,
    benchmarks: [
      Benchmark(
        name: "@Shared(.fileStorage(url)) loads",
        workload: load {
          _ = bytes()
          return FileStorageKey<[Item]>.fileStorage(plainURL)
        },
        baselineName: "JSONDecoder on the bytes",
        baseline: decode,
        target: .ratio(1.2)
      ),
      Benchmark(
        name: "… at version 2, in an envelope",
        workload: load {
          _ = bytes()
          return FileStorageKey<[Item]>.fileStorage(versionedURL, version: 2, migrations: [])
        },
        baselineName: "JSONDecoder on the bytes",
        baseline: decode,
        target: .none
      ),
    ],
    notes: [
      "\(itemCount) items as pretty-printed JSON with sorted keys, what the key writes.",
      "Each load creates a `@Shared` value on a new storage, so nothing is cached: it reads",
      "the file, decodes it, and starts watching it. The floor decodes bytes in memory.",
    ]
  )
}

private let itemCount = 58_000

/// Times creating a shared value from a key on a new real-disk storage.
private func load(_ key: @escaping () -> FileStorageKey<[Item]>) -> Workload {
  .batch(of: 1) { _ in
    withDependencies {
      $0.defaultFileStorage = .fileSystem(throttle: .seconds(1))
    } operation: {
      let key = key()
      let start = startMeasuring()
      let shared = Shared(wrappedValue: [], key)
      let elapsed = cost(since: start)
      blackHole(shared)
      return elapsed
    }
  }
}
