import Foundation

/// Runs `body`, and returns its result with the processor time the calling thread spent in
/// it: the work it did, which grows with what it handles (a larger store) but not with how
/// busy the machine is, or how long it waited for the disk — unlike the time it took.
func measuringProcessorTime<R>(_ body: () throws -> R) rethrows -> (result: R, time: Duration) {
  let start = threadProcessorTime()
  let result = try body()
  return (result, threadProcessorTime() - start)
}

private func threadProcessorTime() -> Duration {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
