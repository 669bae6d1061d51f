/// The clock and timer behind the deferred work of a ``FileStorage``: throttled writes, and
/// on the virtual file system, the playback of simulated external changes.
///
/// A storage made with ``FileStorage/fileSystem`` uses a private dispatch queue and the
/// continuous clock. Give a storage a ``ManualWriteScheduler`` to decide in a test when
/// time passes:
///
/// ```swift
/// let scheduler = ManualWriteScheduler()
/// try await withDependencies {
///   $0.defaultFileStorage = .fileSystem(scheduler: scheduler)
/// } operation: {
///   @Shared(.fileStorage(url)) var count = 0
///   $count.withLock { $0 += 1 }             // the first change is written at once
///   $count.withLock { $0 += 1 }
///   scheduler.advance(by: .seconds(1))      // the next one a second after the first
/// }
/// ```
///
/// > Important: ``schedule(after:_:)`` must run each action exactly once, once ``now()``
/// > has moved on by at least `delay`. Running it on the calling thread, before returning,
/// > is allowed.
public protocol WriteScheduler: Sendable {
  /// The current time, measured from an arbitrary fixed origin.
  func now() -> Duration

  /// Runs `action` once `delay` has passed.
  ///
  /// - Parameters:
  ///   - delay: How long to wait; zero or less means as soon as possible.
  ///   - action: The work to run.
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
}
