/// A watch of a file, started by ``FileSystemBackend/watch(_:onChange:)``.
struct FileWatch: RecordWatch {
  private let isActiveNow: @Sendable () -> Bool
  private let stopWatching: @Sendable () -> Void

  /// A watch that tells whether it sees every change with `isActive`, asked each time.
  init(isActive: @escaping @Sendable () -> Bool, stop: @escaping @Sendable () -> Void) {
    self.isActiveNow = isActive
    self.stopWatching = stop
  }

  /// A watch that sees every change for as long as it lives, or never does.
  init(isActive: Bool, stop: @escaping @Sendable () -> Void) {
    self.init(isActive: { isActive }, stop: stop)
  }

  /// Whether every change to the file is reported now: only then does what is known of the
  /// file stay true while it is watched. A watch that was active stops being so when the
  /// file's directory can no longer be watched.
  var isLive: Bool { isActiveNow() }

  /// Ends the watch.
  func stop() { stopWatching() }
}
