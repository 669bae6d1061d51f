import Foundation

#if os(Linux) || os(Android)
  /// The inotify calls ``FileWatcher`` makes to set up watches: the kernel's, or failing ones
  /// in tests, which cannot reach the kernel's limits without exhausting the machine.
  ///
  /// Each returns a descriptor, or the negated `errno` of its failure.
  struct InotifyCalls: Sendable {
    /// Creates an inotify instance, as `inotify_init1`.
    var initialize: @Sendable () -> Int32
    /// Adds a watch on a directory to an instance, as `inotify_add_watch`.
    var addWatch: @Sendable (_ instance: Int32, _ path: String, _ mask: UInt32) -> Int32

    /// The kernel's calls.
    static let system = InotifyCalls(
      initialize: {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        return descriptor >= 0 ? descriptor : -errno
      },
      addWatch: { instance, path, mask in
        let descriptor = inotify_add_watch(instance, path, mask)
        return descriptor >= 0 ? descriptor : -errno
      }
    )
  }
#endif
