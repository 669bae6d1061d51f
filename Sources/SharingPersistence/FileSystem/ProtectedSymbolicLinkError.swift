import Foundation

/// Why a file was not read, written or locked: a symbolic link leading to it belongs to
/// another user, in a directory anyone may write to, and following it could let that user
/// choose which file this process writes.
///
/// The rule is Linux's `fs.protected_symlinks`, applied whether or not the system enables it:
/// a link in a sticky, world-writable directory (such as `/tmp`) is followed only by its
/// owner, or when it belongs to the directory's owner.
struct ProtectedSymbolicLinkError: LocalizedError, CustomStringConvertible {
  /// The symbolic link that was not followed.
  let link: URL
  /// The user who owns the link.
  let owner: uid_t

  var description: String {
    """
    The symbolic link at \(link.path) was not followed: it belongs to another user (uid \
    \(owner)) in a sticky directory anyone may write to, so following it could make this \
    process read or write a file that user chose (as Linux's fs.protected_symlinks refuses). \
    Use the file it leads to directly, or a link of your own.
    """
  }

  var errorDescription: String? { description }
}
