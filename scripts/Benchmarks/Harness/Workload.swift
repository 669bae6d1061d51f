/// Something to measure: runs an operation a number of times and returns what the measured
/// part cost, in the unit of its suite (nanoseconds, or bytes), or in instructions when the
/// program counts them (see ``startMeasuring()``).
struct Workload {
  /// Runs the operation `count` times; returns the cost of the measured part.
  let run: (_ count: Int) -> UInt64
  /// The number of operations per batch when it cannot be chosen freely (creating a fixed
  /// number of values); `nil` to calibrate a batch to ``Measurement/batchDuration``.
  let fixedCount: Int?
  /// A quantity measured once rather than timed in batches (a count, a percentile of a
  /// series), in what the suite's unit scales from (nanoseconds, for times); `nil` for
  /// timed workloads.
  var measure: (() -> Double)? = nil

  /// A workload whose body loops `count` times itself, so the loop is specialised and
  /// inlined around the measured operation; the whole call is measured.
  static func loop(_ body: @escaping (_ count: Int) -> Void) -> Workload {
    Workload(
      run: { count in
        let start = startMeasuring()
        body(count)
        return cost(since: start)
      },
      fixedCount: nil
    )
  }

  /// A workload of exactly `count` operations that needs unmeasured setup and teardown: the
  /// body returns the cost of its measured part (from ``cost(since:)``, or bytes allocated).
  static func batch(of count: Int, _ body: @escaping (_ count: Int) -> UInt64) -> Workload {
    Workload(run: body, fixedCount: count)
  }

  /// A workload of any number of operations that needs unmeasured setup and teardown: the
  /// body returns the cost of its measured part, from ``cost(since:)``.
  static func measuredPart(_ body: @escaping (_ count: Int) -> UInt64) -> Workload {
    Workload(run: body, fixedCount: nil)
  }

  /// A quantity the workload measures itself, once, when the benchmark runs: a count, or a
  /// percentile of a series of its own. Several rows can share one series through ``Once``.
  static func value(_ measure: @escaping () -> Double) -> Workload {
    Workload(run: { _ in 0 }, fixedCount: 1, measure: measure)
  }
}

/// A value computed the first time it is asked for, so that rows sharing an experiment run
/// it once, and only if one of them is measured.
final class Once<Value> {
  private let make: () -> Value
  private var value: Value?

  init(_ make: @escaping () -> Value) {
    self.make = make
  }

  func callAsFunction() -> Value {
    if let value { return value }
    let made = make()
    value = made
    return made
  }
}
