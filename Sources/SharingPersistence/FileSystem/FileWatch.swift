/// A watch of a file, started by ``FileSystemBackend/watch(_:onChange:)``.
struct FileWatch: RecordWatch {
  private let isLiveNow: @Sendable () -> Bool
  private let stopWatching: @Sendable () -> Void

  /// A watch that tells whether it sees every change with `isLive`, asked each time.
  init(isLive: @escaping @Sendable () -> Bool, stop: @escaping @Sendable () -> Void) {
    self.isLiveNow = isLive
    self.stopWatching = stop
  }

  /// A watch that sees every change for as long as it lives, or never does.
  init(isLive: Bool, stop: @escaping @Sendable () -> Void) {
    self.init(isLive: { isLive }, stop: stop)
  }

  /// Whether every change to the file is reported now: only then does what is known of the
  /// file stay true while it is watched. A watch that was live stops being so when the
  /// file's directory can no longer be watched.
  var isLive: Bool { isLiveNow() }

  /// Ends the watch.
  func stop() { stopWatching() }
}
