import CProbes
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic time in nanoseconds.
@inline(__always)
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Starts the measured part of a workload: notes the time, or, when the program counts
/// instructions, sets callgrind's counters to zero. Pass the result to ``cost(since:)``.
@inline(__always)
func startMeasuring() -> UInt64 {
  guard let counter = InstructionCounter.current else { return now() }
  counter.start()
  return 0
}

/// What the measured part begun by ``startMeasuring()`` cost: elapsed nanoseconds, or the
/// instructions executed when the program counts instructions.
@inline(__always)
func cost(since start: UInt64) -> UInt64 {
  guard let counter = InstructionCounter.current else { return now() - start }
  return counter.stop()
}

/// Bytes currently allocated with `malloc`, counting live blocks only.
func allocatedBytes() -> Int {
  #if canImport(Glibc)
    // NB: 'mallinfo2' (glibc 2.33+) counts the bytes of every live malloc block, whatever
    //     arena or mmap it came from; Swift allocates every object through malloc.
    let info = mallinfo2()
    return Int(info.uordblks + info.hblkhd)
  #else
    return 0
  #endif
}

/// The resident set size of the process, in bytes (from `/proc/self/statm` on Linux).
func residentBytes() -> Int {
  #if os(Linux)
    // NB: The second field of 'statm' is the resident set, in pages.
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let resident = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    return 0
  #endif
}
