import Foundation

#if os(Linux) || os(Android)
  /// What identifies one version of a file, which a ``FileWatcher`` that polls the file
  /// compares: a change by anyone gives another stamp (a replacement another inode, a write
  /// another size or modification time).
  ///
  /// Two writes within the same tick of the file system's clock that leave the size unchanged
  /// give the same stamp: a stamp tells that a file changed, never that it did not.
  struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    /// When the file was last modified, by the file system's clock.
    let modifiedAt: Duration

    /// The stamp of the file at `path`, following symbolic links, or `nil` if there is none.
    init?(path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modifiedAt = .seconds(info.st_mtim.tv_sec) + .nanoseconds(info.st_mtim.tv_nsec)
    }

    /// The time of the file system's clock a stamp is compared with: the wall clock, since
    /// 1970.
    static func now() -> Duration {
      var time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether a write after this stamp was taken, at or after `now`, could leave the file
    /// with this same stamp: the file was modified within one tick of the file system's clock
    /// from `now`. Linux stamps files from a clock that advances once per scheduler tick (at
    /// most 10 ms: 50 ms leaves room); a file system that keeps whole seconds (nanoseconds
    /// always 0) advances every 1 or 2 s.
    ///
    /// `now` is read before the stamp is taken. A modification time that far or farther in
    /// the future (another machine's clock) is not waited for.
    func mayRepeat(after now: Duration) -> Bool {
      let tick: Duration = modifiedAt.components.attoseconds == 0 ? .seconds(2) : .milliseconds(50)
      let age = now - modifiedAt
      return age < tick && age > .zero - tick
    }
  }
#endif
