// Foundation exports the platform's C library, which has 'pthread_self'.
import Foundation

/// A number identifying the calling thread while it runs.
@inline(__always)
package func currentThreadID() -> UInt {
  #if canImport(Glibc)
    return UInt(pthread_self())
  #else
    // NB: 'pthread_t' is a pointer on Darwin and Musl, and an 'Int' on Android.
    return UInt(bitPattern: pthread_self())
  #endif
}
