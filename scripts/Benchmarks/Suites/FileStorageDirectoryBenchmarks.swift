import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// Creating a `@Shared(.fileStorage(url))` value on a new file of a directory that holds
/// 10,000 files, and writing it, beside the same in a directory of 100: a directory's size
/// must not make each of its files cost more.
func fileStorageDirectorySuite() -> Suite {
  Suite(
    name: "fileStorage, a new key in a directory of many files",
    unit: .microseconds,
    benchmarks: [
      Benchmark(
        name: "new key, 10,000th file of its directory",
        workload: newKeys(inDirectoryOf: 10_000),
        baselineName: "100th file",
        baseline: newKeys(inDirectoryOf: 100),
        target: .ratio(2)
      ),
      Benchmark(
        name: "… and its first write",
        workload: newKeys(inDirectoryOf: 10_000, writing: true),
        baselineName: "100th file",
        baseline: newKeys(inDirectoryOf: 100, writing: true),
        target: .ratio(2)
      ),
    ],
    notes: [
      "The directory holds the files of earlier keys, each created and dropped, as a program",
      "that keeps a file per record does. Each operation writes a new file (not measured),",
      "creates a shared value on it (measured: it reads the file and starts watching it),",
      "then drops the value and removes the file (not measured). The second row also changes",
      "the value once, which writes the file (temporary file, fsync, rename) and removes the",
      "file's abandoned temporary files before withLock returns.",
    ]
  )
}

/// Creates shared values on new files of a directory of `count` files, each dropped before
/// the next; if `writing`, changes each once and waits for its write too.
private func newKeys(inDirectoryOf count: Int, writing: Bool = false) -> Workload {
  let directory = Once { filledDirectory(count: count - 1) }
  var next = 0
  return .measuredPart { operations in
    let directory = directory()
    return withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      var elapsed: UInt64 = 0
      for _ in 0..<operations {
        next += 1
        let url = directory.appendingPathComponent("new-\(next).json")
        try? Data("1".utf8).write(to: url)
        let start = startMeasuring()
        let shared = Shared(wrappedValue: 0, .fileStorage(url))
        // NB: The first change in a while is written before withLock returns.
        if writing { shared.withLock { $0 += 1 } }
        elapsed += cost(since: start)
        blackHole(shared.wrappedValue)
        _ = consume shared
        try? FileManager.default.removeItem(at: url)
      }
      return elapsed
    }
  }
}

/// A new directory holding `count` files, each used by a shared value once.
private func filledDirectory(count: Int) -> URL {
  let directory = makeBenchmarkDirectory("directory-\(count)")
  withDependencies {
    $0.defaultFileStorage = .fileSystem
  } operation: {
    for index in 0..<count {
      let url = directory.appendingPathComponent("\(index).json")
      try? Data("\(index)".utf8).write(to: url)
      let shared = Shared(wrappedValue: 0, .fileStorage(url))
      blackHole(shared.wrappedValue)
    }
  }
  return directory
}
