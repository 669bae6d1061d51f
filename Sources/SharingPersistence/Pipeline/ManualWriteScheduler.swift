import SharingDependencies

/// A ``WriteScheduler`` whose time only moves when a test advances it.
///
/// Deferred work runs on the thread that calls ``advance(by:)``, before it returns, in
/// order of deadline (and of scheduling, for equal deadlines):
///
/// ```swift
/// let scheduler = ManualWriteScheduler()
/// let storage = FileStorage.fileSystem(scheduler: scheduler)
/// // …changes through '@Shared(.fileStorage(url))'…
/// scheduler.advance(by: .milliseconds(999))   // nothing written yet
/// scheduler.advance(by: .milliseconds(1))     // the throttled write lands
/// ```
///
/// Work nobody advances time for stays pending. On the real file system,
/// ``flushPendingWrites()`` and normal process exit still write it; on a virtual one, only the
/// storage's own ``FileStorage/flushPendingWritesAndWait()`` does.
public final class ManualWriteScheduler: WriteScheduler {
  private struct State {
    var now = Duration.zero
    /// In order of scheduling.
    var actions: [(deadline: Duration, action: @Sendable () -> Void)] = []
  }

  private let state = Locked(State())

  /// Creates a scheduler whose time starts at zero.
  public init() {}

  /// The time, which only ``advance(by:)`` moves.
  public func now() -> Duration {
    state.withLock(\.now)
  }

  /// Keeps `action` until time is advanced past `delay` from now.
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    state.withLock { $0.actions.append(($0.now + max(delay, .zero), action)) }
  }

  /// The number of actions waiting for their deadline.
  public var pendingCount: Int {
    state.withLock(\.actions.count)
  }

  /// Moves time forward, running every action that falls due, in deadline order.
  ///
  /// Actions scheduled by the actions it runs run too, if they fall due.
  ///
  /// - Parameter duration: How far to move time; zero runs what is due now.
  public func advance(by duration: Duration = .zero) {
    let target = state.withLock { $0.now + duration }
    while let action = nextAction(dueBy: target) {
      action()
    }
    state.withLock { $0.now = max($0.now, target) }
  }

  private func nextAction(dueBy target: Duration) -> (@Sendable () -> Void)? {
    state.withLock { state in
      // The first of the earliest: of equal deadlines, the one scheduled first.
      guard
        let index = state.actions.indices.min(by: {
          state.actions[$0].deadline < state.actions[$1].deadline
        }),
        state.actions[index].deadline <= target
      else { return nil }
      let next = state.actions.remove(at: index)
      state.now = max(state.now, next.deadline)
      return next.action
    }
  }
}
