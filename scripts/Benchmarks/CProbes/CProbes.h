// What the benchmarks ask of the C library and of valgrind, which Swift cannot reach alone:
// the allocator's statistics ('mallinfo2' on glibc, not imported by the Glibc module) and
// callgrind's client requests (macros of inline assembly).
#if defined(__GLIBC__) || (defined(__linux__) && __has_include(<malloc.h>))
#include <malloc.h>
#endif

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

/// Whether the program runs under valgrind.
static inline int probes_isRunningOnValgrind(void) { return RUNNING_ON_VALGRIND; }

/// Sets callgrind's counters to zero.
static inline void probes_zeroInstructionCounts(void) { CALLGRIND_ZERO_STATS; }

/// Writes callgrind's counters since they were last zeroed to the next dump file.
static inline void probes_dumpInstructionCounts(const char *label) {
  CALLGRIND_DUMP_STATS_AT(label);
}
#else
static inline int probes_isRunningOnValgrind(void) { return 0; }
static inline void probes_zeroInstructionCounts(void) {}
static inline void probes_dumpInstructionCounts(const char *label) { (void)label; }
#endif
