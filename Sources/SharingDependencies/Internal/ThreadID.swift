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

/// Whether the calling thread is the process's main thread, as `Thread.isMainThread` says.
///
/// On Linux, Foundation asks the kernel twice at each call (the main thread's ID is the
/// process ID): the answer is kept for each thread instead.
package func isOnMainThread() -> Bool {
  #if os(Linux)
    guard let key = mainThreadKey else { return Thread.isMainThread }
    let known = Int(bitPattern: pthread_getspecific(key))
    if known != 0 { return known == 1 }
    let isMain = Thread.isMainThread
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
    return isMain
  #else
    return Thread.isMainThread
  #endif
}

#if os(Linux)
  /// The thread-specific value that keeps, for each thread, whether it is the main one (1)
  /// or not (2); `nil` if the process had no key left to make it.
  private let mainThreadKey: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key, nil) == 0 ? key : nil
  }()
#endif
