/// Runs deferred work at once, on the calling thread: every change is written through, and
/// every external change is played back before the change returns.
struct ImmediateWriteScheduler: WriteScheduler {
  func now() -> Duration { .zero }

  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    action()
  }
}
