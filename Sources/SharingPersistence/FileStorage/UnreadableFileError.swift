import Foundation

/// Why a file that exists but could not be read was not overwritten: the
/// ``/SharingCore/Shared/saveError`` of its writes until it can be read or is removed.
struct UnreadableFileError: Error, CustomStringConvertible {
  let url: URL
  /// Why the file could not be read; `nil` once it could be read again, with a value that was
  /// loaded instead of being overwritten.
  let cause: (any Error)?

  var description: String {
    guard let cause else {
      return """
        The file at \(url.path) can be read again: its value was loaded instead of being \
        overwritten. Change the value again to write it.
        """
    }
    return """
      The file at \(url.path) exists but cannot be read (\(cause)), so it is not \
      overwritten: make it readable, or remove it.
      """
  }
}
