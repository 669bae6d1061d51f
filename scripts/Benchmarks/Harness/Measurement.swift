/// Measures benchmarks: times them (calibrating a batch size, warming up, then alternating
/// batches of the operation and of its baseline and keeping the median of each), or counts
/// their instructions under callgrind.
struct Measurement {
  /// Timed batches per benchmark, each for the operation and for its baseline.
  var runs = 15
  /// How long a calibrated batch should take, in nanoseconds.
  var batchDuration: UInt64 = 5_000_000
  /// How many instructions a counted batch should execute at least, up to
  /// ``countedOperations`` operations.
  var countedInstructions: UInt64 = 2_000_000
  /// The most operations a counted batch runs.
  var countedOperations = 10_000

  struct Result {
    let benchmark: Benchmark
    /// The median cost of one operation; NaN if not timed.
    var median = Double.nan
    /// The median cost of one operation of the baseline.
    var baselineMedian = Double.nan
    /// The median of the ratios of each batch to the baseline batch run right after it.
    var ratio = Double.nan
    /// Instructions per operation, if counted.
    var instructions: Instructions?

    /// Whether the instruction ratio meets a ratio target: what `--check` judges; `nil` if
    /// nothing is judged (no ratio target, or no instruction count).
    var meetsTarget: Bool? {
      guard case .ratio(let limit) = benchmark.target, let instructions else { return nil }
      return instructions.ratio <= limit
    }

    /// Whether a measurement that is not judged meets its goal, as information: a timed
    /// ratio without instruction counts, or a value with an upper bound.
    var meetsGoal: Bool? {
      switch benchmark.target {
      case .ratio(let limit): instructions != nil || ratio.isNaN ? nil : ratio <= limit
      case .atMost(let limit): median.isNaN ? nil : median <= limit
      case .none: nil
      }
    }
  }

  /// Instructions per operation of a benchmark and of its baseline.
  struct Instructions {
    let operation: Double
    let baseline: Double
    var ratio: Double { operation / baseline }
  }

  /// Times a benchmark; results are in `unit`, from what workloads return (see
  /// ``Suite/Unit/scale``).
  func measure(_ benchmark: Benchmark, in unit: Suite.Unit) -> Result {
    var result = measure(benchmark)
    result.median /= unit.scale
    result.baselineMedian /= unit.scale
    return result
  }

  /// Counts the instructions of one operation of a benchmark and of its baseline; `nil` for
  /// a quantity measured once. Call only when ``InstructionCounter/current`` exists.
  func countInstructions(of benchmark: Benchmark) -> Instructions? {
    guard benchmark.workload.measure == nil else { return nil }
    return Instructions(
      operation: instructionsPerOperation(benchmark.workload),
      baseline: benchmark.baseline.map(instructionsPerOperation) ?? .nan
    )
  }

  private func measure(_ benchmark: Benchmark) -> Result {
    if let measure = benchmark.workload.measure {
      let value = measure()
      let baseline = benchmark.baseline?.measure?() ?? .nan
      return Result(
        benchmark: benchmark,
        median: value,
        baselineMedian: baseline,
        ratio: value / baseline
      )
    }
    guard let baseline = benchmark.baseline else {
      let count = batchSize(for: benchmark.workload)
      let samples = (0..<runs).map { _ in
        Double(benchmark.workload.run(count)) / Double(count)
      }
      return Result(benchmark: benchmark, median: median(samples))
    }
    let count = batchSize(for: benchmark.workload)
    let baselineCount = batchSize(for: baseline)
    var samples: [Double] = []
    var baselineSamples: [Double] = []
    for _ in 0..<runs {
      // NB: Interleaved, so that a slow patch of the machine (two shared cores) slows
      //     both sides of the ratio rather than one.
      samples.append(Double(benchmark.workload.run(count)) / Double(count))
      baselineSamples.append(Double(baseline.run(baselineCount)) / Double(baselineCount))
    }
    // NB: The ratio pairs each batch with its neighbouring baseline batch: when another
    //     process takes a core for a while, both sides of a pair slow down together.
    let ratios = zip(samples, baselineSamples).map { $0 / $1 }
    return Result(
      benchmark: benchmark,
      median: median(samples),
      baselineMedian: median(baselineSamples),
      ratio: median(ratios)
    )
  }

  /// Picks a batch size that takes about ``batchDuration``, warming the workload up on
  /// the way.
  private func batchSize(for workload: Workload) -> Int {
    if let fixed = workload.fixedCount {
      _ = workload.run(fixed)
      return fixed
    }
    var count = 64
    while true {
      let elapsed = workload.run(count)
      if elapsed >= batchDuration / 4 || count >= 1 << 30 {
        let scaled = Double(count) * Double(batchDuration) / Double(max(elapsed, 1))
        let chosen = max(1, Int(scaled))
        _ = workload.run(chosen)
        return chosen
      }
      count *= 2
    }
  }

  /// Instructions per operation of a warmed-up batch: ``countedOperations`` operations, or
  /// fewer when they execute ``countedInstructions`` or more.
  private func instructionsPerOperation(_ workload: Workload) -> Double {
    var count = workload.fixedCount ?? 1
    // NB: The batches that pick the size also warm the workload up (first allocations,
    //     lazily created state), so the counted batch is a later one of the same size.
    while workload.fixedCount == nil, count < countedOperations,
      workload.run(count) < countedInstructions
    {
      count = min(count * 4, countedOperations)
    }
    _ = workload.run(count)
    return Double(workload.run(count)) / Double(count)
  }

  private func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
