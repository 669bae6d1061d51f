import CMallocInfo

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
