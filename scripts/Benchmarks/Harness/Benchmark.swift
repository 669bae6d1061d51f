/// One row of a results table: an operation, the baseline it is compared with, and the
/// largest acceptable ratio between the two.
struct Benchmark {
  let name: String
  let workload: Workload
  /// What the baseline is, in a few words ("Mutex box read", "direct read").
  let baselineName: String
  let baseline: Workload
  let target: Target

  enum Target {
    /// The median must be at most this multiple of the baseline's median.
    case ratio(Double)
    /// Reported, not judged.
    case none
  }
}

/// A group of benchmarks printed as one table.
struct Suite {
  let name: String
  /// The unit one operation is measured in.
  let unit: Unit
  let benchmarks: [Benchmark]
  /// A few lines printed under the table.
  var notes: [String] = []

  enum Unit: String {
    case nanoseconds = "ns/op"
    case bytes = "bytes/op"
  }
}
