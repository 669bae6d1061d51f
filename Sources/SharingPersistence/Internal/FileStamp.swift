import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// What identifies one version of a file: a change by anyone gives another stamp (a
/// replacement another inode, a write another size or modification time).
///
/// Two writes within the same tick of the file system's clock that leave the size unchanged
/// give the same stamp: a stamp tells that a file changed, never that it did not.
struct FileStamp: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let modified: Int64
  let modifiedNanoseconds: Int64

  /// The stamp of the file at `path`, following symbolic links, or `nil` if there is none.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    self.modified = Int64(modified.tv_sec)
    modifiedNanoseconds = Int64(modified.tv_nsec)
  }
}
