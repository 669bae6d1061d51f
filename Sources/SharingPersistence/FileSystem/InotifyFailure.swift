import Foundation

#if os(Linux) || os(Android)
  /// An inotify call that failed, which leaves files polled rather than watched: what
  /// ``FileWatcher`` writes to standard error.
  struct InotifyFailure {
    /// The call: `inotify_init1`, `inotify_add_watch` or `read`.
    let call: String
    /// The `errno` it failed with.
    let code: Int32
    /// The directory it was asked to watch, if any.
    let path: String?

    /// What makes two failures the same for reporting: the call and the error.
    var kind: String { "\(call) \(code)" }

    /// Says what failed, what is done instead, and which limit to raise if one was reached,
    /// in one line.
    ///
    /// - Parameter interval: How often the files that cannot be watched are polled.
    func message(pollingEvery interval: Duration) -> String {
      let name = POSIXErrorCode(rawValue: code).map { "\($0)" } ?? "errno \(code)"
      let failure = """
        Cannot watch \(path ?? "files") for changes made by other programs: '\(call)' failed \
        with \(name) (\(String(cString: strerror(code)))).
        """
      let consequence = """
        Files are still loaded and saved, and the files it concerns are checked for changes \
        every \(interval) instead, which costs a little time for each file.
        """
      return [failure, consequence, remedy].compactMap { $0 }.joined(separator: " ")
    }

    /// How to stop the failure, when it is a limit of the system.
    private var remedy: String? {
      switch (call, code) {
      case ("inotify_init1", EMFILE):
        return """
          The limit of inotify instances per user is probably reached: raise it with \
          'sysctl fs.inotify.max_user_instances=<count>' (if the process ran out of file \
          descriptors instead, raise 'ulimit -n').
          """
      case ("inotify_init1", ENFILE):
        return "The system ran out of file descriptors: raise 'sysctl fs.file-max=<count>'."
      case ("inotify_add_watch", ENOSPC):
        return """
          The limit of inotify watches per user is reached: raise it with \
          'sysctl fs.inotify.max_user_watches=<count>'.
          """
      default:
        return nil
      }
    }
  }
#endif
