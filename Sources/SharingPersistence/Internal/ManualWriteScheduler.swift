import SharingDependencies

/// A scheduler whose time only moves when a test advances it.
package final class ManualWriteScheduler: WriteScheduler {
  private struct State {
    var now = Duration.zero
    var sequence = 0
    var actions: [(deadline: Duration, sequence: Int, action: @Sendable () -> Void)] = []
  }

  private let state = Locked(State())

  package init() {}

  package func now() -> Duration {
    state.withLock(\.now)
  }

  package func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.sequence += 1
      state.actions.append((state.now + max(delay, .zero), state.sequence, action))
    }
  }

  /// The number of actions waiting for their deadline.
  package var pendingCount: Int {
    state.withLock(\.actions.count)
  }

  /// Moves time forward, running every action that falls due, in deadline order.
  package func advance(by duration: Duration = .zero) {
    let target = state.withLock { $0.now + duration }
    while let action = nextAction(dueBy: target) {
      action()
    }
    state.withLock { $0.now = max($0.now, target) }
  }

  private func nextAction(dueBy target: Duration) -> (@Sendable () -> Void)? {
    state.withLock { state in
      guard
        let index = state.actions.indices
          .filter({ state.actions[$0].deadline <= target })
          .min(by: {
            (state.actions[$0].deadline, state.actions[$0].sequence)
              < (state.actions[$1].deadline, state.actions[$1].sequence)
          })
      else { return nil }
      let next = state.actions.remove(at: index)
      state.now = max(state.now, next.deadline)
      return next.action
    }
  }
}
