/// One row of a results table: an operation, the baseline it is compared with, and the
/// largest acceptable ratio between the two.
///
/// Only instruction counts are judged (`scripts/benchmark --check`): they do not move with
/// the machine or its load. Times, heap bytes and counts are information, shown beside the
/// goal they are expected to meet.
struct Benchmark {
  let name: String
  let workload: Workload
  /// What the baseline is, in a few words ("Mutex box read", "direct read"); "—" if none.
  let baselineName: String
  /// The baseline, or `nil` for a quantity judged on its own (a count, a percentile).
  let baseline: Workload?
  let target: Target

  enum Target {
    /// The instructions of one operation must be at most this multiple of the baseline's.
    /// Without instruction counts (a suite in milliseconds, or `--timed-only`), the timed
    /// ratio is shown against it as information.
    case ratio(Double)
    /// A goal for the measured value, in the unit of the suite: shown, not judged.
    case atMost(Double)
    /// Reported, not judged.
    case none
  }
}

/// A group of benchmarks printed as one table.
struct Suite {
  let name: String
  /// The unit one operation is measured in.
  let unit: Unit
  var benchmarks: [Benchmark]
  /// A few lines printed under the table.
  var notes: [String] = []

  enum Unit: String {
    case nanoseconds = "ns/op"
    case microseconds = "µs/op"
    case bytes = "bytes/op"
    case milliseconds = "ms"
    case count = "count"

    /// What one of this unit is in what workloads return: nanoseconds for times, bytes,
    /// or a count.
    var scale: Double {
      switch self {
      case .microseconds: 1e3
      case .milliseconds: 1e6
      case .nanoseconds, .bytes, .count: 1
      }
    }

    /// The fractional digits shown for a value in this unit.
    var digits: Int {
      switch self {
      case .nanoseconds, .microseconds: 1
      case .bytes, .count: 0
      case .milliseconds: 2
      }
    }
  }
}
