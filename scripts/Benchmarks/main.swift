// Benchmarks of SharingCore's hot paths, each compared with a floor measured in the same run.
//
// Run with `scripts/benchmark` (release build). Options:
//   --filter TEXT   only benchmarks whose suite or case name contains TEXT
//   --runs N        timed batches per benchmark (default 15); the median is reported
//   --check         exit with status 1 if a benchmark misses its target
//   --list          print the benchmark names and exit
//   --profile N     run only the selected workloads, N operations each, without baselines
//                   or timing (for a profiler: valgrind --tool=callgrind ... --profile N)

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct Options {
  var filter: String?
  var runs = 15
  var check = false
  var list = false
  var profile: Int?

  init(_ arguments: [String]) {
    var arguments = arguments.makeIterator()
    while let argument = arguments.next() {
      switch argument {
      case "--filter": filter = arguments.next()
      case "--runs": runs = arguments.next().flatMap(Int.init) ?? runs
      case "--check": check = true
      case "--list": list = true
      case "--profile": profile = arguments.next().flatMap(Int.init) ?? 1_000_000
      default:
        print("unknown option '\(argument)'; see the top of scripts/benchmark")
        exit(2)
      }
    }
  }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

// NB: Suites are built lazily, one at a time, so that a filtered run creates no state for
//     the others; the persistence suites run their experiments only when measured.
let suites: [() -> Suite] = [
  coreSuite, observationSuite, keyedSuite, memorySuite,
  persistenceOperationSuite, fileStorageBurstSuite, fileStorageLatencySuite,
  fileStorageLoadSuite,
]

let measurement = Measurement(runs: options.runs)
var missed: [String] = []
for makeSuite in suites {
  var suite = makeSuite()
  if let filter = options.filter, !suite.name.contains(filter) {
    suite = Suite(
      name: suite.name,
      unit: suite.unit,
      benchmarks: suite.benchmarks.filter { $0.name.contains(filter) },
      notes: suite.notes
    )
  }
  guard !suite.benchmarks.isEmpty else { continue }
  if options.list {
    for benchmark in suite.benchmarks { print("\(suite.name) / \(benchmark.name)") }
    continue
  }
  if let profile = options.profile {
    for benchmark in suite.benchmarks {
      _ = benchmark.workload.run(benchmark.workload.fixedCount ?? profile)
    }
    continue
  }
  var results: [Measurement.Result] = []
  for benchmark in suite.benchmarks {
    let result = measurement.measure(benchmark, in: suite.unit)
    results.append(result)
    if result.meetsTarget == false { missed.append("\(suite.name) / \(benchmark.name)") }
  }
  print(Table(suite: suite, results: results).render())
  print()
}

removeBenchmarkDirectory()

if !options.list && options.profile == nil {
  print(missed.isEmpty ? "All targets met." : "Missed targets:")
  for name in missed { print("  \(name)") }
}
if options.check && !missed.isEmpty { exit(1) }
