/// Something to measure: runs an operation a number of times and returns what the measured
/// part cost, in the unit of its suite (nanoseconds, or bytes).
struct Workload {
  /// Runs the operation `count` times; returns the cost of the measured part.
  let run: (_ count: Int) -> UInt64
  /// The number of operations per batch when it cannot be chosen freely (creating a fixed
  /// number of values); `nil` to calibrate a batch to ``Measurement/batchDuration``.
  let fixedCount: Int?

  /// A workload whose body loops `count` times itself, so the loop is specialised and
  /// inlined around the measured operation; the whole call is timed.
  static func loop(_ body: @escaping (_ count: Int) -> Void) -> Workload {
    Workload(
      run: { count in
        let start = now()
        body(count)
        return now() - start
      },
      fixedCount: nil
    )
  }

  /// A workload of exactly `count` operations that needs unmeasured setup and teardown: the
  /// body returns the cost of its measured part (elapsed nanoseconds, or bytes allocated).
  static func batch(of count: Int, _ body: @escaping (_ count: Int) -> UInt64) -> Workload {
    Workload(run: body, fixedCount: count)
  }
}
