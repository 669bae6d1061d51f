/// Times benchmarks: calibrates a batch size, warms up, then alternates batches of the
/// operation and of its baseline and keeps the median of each.
struct Measurement {
  /// Timed batches per benchmark, each for the operation and for its baseline.
  var runs = 15
  /// How long a calibrated batch should take, in nanoseconds.
  var batchDuration: UInt64 = 5_000_000

  struct Result {
    let benchmark: Benchmark
    /// The median cost of one operation.
    let median: Double
    /// The median cost of one operation of the baseline.
    let baselineMedian: Double
    /// The median of the ratios of each batch to the baseline batch run right after it.
    let ratio: Double
    var meetsTarget: Bool? {
      switch benchmark.target {
      case .ratio(let limit): ratio <= limit
      case .atMost(let limit): median <= limit
      case .none: nil
      }
    }
  }

  /// Measures a benchmark; results are in `unit`, from what workloads return (see
  /// ``Suite/Unit/scale``).
  func measure(_ benchmark: Benchmark, in unit: Suite.Unit) -> Result {
    let result = measure(benchmark)
    return Result(
      benchmark: benchmark,
      median: result.median / unit.scale,
      baselineMedian: result.baselineMedian / unit.scale,
      ratio: result.ratio
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
      return Result(
        benchmark: benchmark,
        median: median(samples),
        baselineMedian: .nan,
        ratio: .nan
      )
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

  private func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
