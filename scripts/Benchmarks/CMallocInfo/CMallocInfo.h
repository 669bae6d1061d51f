// Exposes the C library's allocator statistics to the benchmarks ('mallinfo2' on glibc),
// which the Glibc module does not import.
#if defined(__GLIBC__) || (defined(__linux__) && __has_include(<malloc.h>))
#include <malloc.h>
#endif
