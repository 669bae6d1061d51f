/// A watch of a file, started by ``FileSystemBackend/watch(_:onChange:)``.
struct FileWatch: Sendable {
  /// Whether every change to the file is reported: only then does what is known of the file
  /// stay true while it is watched.
  let isActive: Bool
  /// Ends the watch.
  let stop: @Sendable () -> Void
}
