// Benchmarks of Sharing's hot paths, each compared with a floor measured in the same run.
//
// Run with `scripts/benchmark` (release build), which counts instructions under callgrind
// and then times; see the top of the script for its options. This program's options:
//   --filter TEXT         only benchmarks whose suite or case name contains TEXT
//   --runs N              timed batches per benchmark (default 15); the median is reported
//   --check               exit with status 1 if an instruction ratio misses its target (times,
//                         sizes and counts are information: they move with the machine)
//   --list                print the benchmark names and exit
//   --instructions FILE   show the instruction counts of a counting run beside the times
//   --no-timing           only show instruction counts (with --instructions)
//   --profile N           run only the selected workloads, N operations each, without baselines
//                         or timing (for a profiler: valgrind --tool=callgrind ... --profile N)
// Under callgrind, with SHARING_BENCHMARK_CALLGRIND_OUT set (as the script runs it), the
// program counts the instructions of the nanosecond benchmarks and prints them as
// tab-separated lines for `--instructions`.

import Foundation

struct Options {
  var filter: String?
  var runs = 15
  var check = false
  var list = false
  var instructionsFile: String?
  var timing = true
  var profile: Int?

  init(_ arguments: [String]) {
    var arguments = arguments.makeIterator()
    while let argument = arguments.next() {
      switch argument {
      case "--filter": filter = arguments.next()
      case "--runs": runs = arguments.next().flatMap(Int.init) ?? runs
      case "--check": check = true
      case "--list": list = true
      case "--instructions": instructionsFile = arguments.next()
      case "--no-timing": timing = false
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
  coreSuite, neverReadSuite, creationSuite, memorySuite, valueSizeSuite, observationSuite,
  keyedSuite, fileStorageRecordsSuite, fileStorageBurstSuite, fileStorageLatencySuite,
  fileStorageLoadSuite, fileStorageDirectorySuite, coordinatedSuite, coordinatedFileSuite,
]

let measurement = Measurement(runs: options.runs)
let counts = options.instructionsFile.map(InstructionCounts.init(contentsOf:))
var missed: [String] = []
for makeSuite in suites {
  var suite = makeSuite()
  if let filter = options.filter, !suite.name.contains(filter) {
    suite.benchmarks = suite.benchmarks.filter { $0.name.contains(filter) }
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
  if InstructionCounter.current != nil {
    guard suite.unit == .nanoseconds else { continue }
    for benchmark in suite.benchmarks {
      guard let instructions = measurement.countInstructions(of: benchmark) else { continue }
      print(InstructionCounts.line(suite: suite, benchmark: benchmark, instructions))
    }
    continue
  }
  var results: [Measurement.Result] = []
  for benchmark in suite.benchmarks {
    var result =
      options.timing
      ? measurement.measure(benchmark, in: suite.unit) : Measurement.Result(benchmark: benchmark)
    result.instructions = counts?[suite, benchmark]
    guard options.timing || result.instructions != nil else { continue }
    results.append(result)
    if result.meetsTarget == false { missed.append("\(suite.name) / \(benchmark.name)") }
  }
  guard !results.isEmpty else { continue }
  print(Table(suite: suite, results: results).render())
  print()
}

removeBenchmarkDirectory()

if !options.list && options.profile == nil && InstructionCounter.current == nil {
  if counts == nil {
    print("No instruction counts: no target judged (--check judges instruction ratios).")
  } else {
    print(missed.isEmpty ? "All instruction targets met." : "Missed instruction targets:")
    for name in missed { print("  \(name)") }
  }
}
if options.check && !missed.isEmpty { exit(1) }
