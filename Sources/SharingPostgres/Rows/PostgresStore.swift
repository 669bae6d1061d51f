import Dispatch
import SharingDependencies
import SharingPersistence

/// The rows of one table of one database that this process uses, and its one listening
/// connection, open while any key of the table is subscribed.
final class PostgresStore: Sendable {
  let backend: any PostgresBackend
  let scheduler: any WriteScheduler
  let throttle: Duration
  let pendingRows: PendingRows
  /// Where notifications are handled, one at a time.
  let playbackQueue = DispatchQueue(label: "SharingPostgres.playback")
  private let state = Locked(State())

  private struct State {
    var rows: [String: SharedRow] = [:]
    var subscriptions = 0
    var stopListening: (@Sendable () -> Void)?
  }

  init(
    backend: any PostgresBackend,
    scheduler: any WriteScheduler,
    throttle: Duration,
    flushesAtExit: Bool
  ) {
    self.backend = backend
    self.scheduler = scheduler
    self.throttle = throttle
    self.pendingRows = PendingRows(flushesAtExit: flushesAtExit)
  }

  deinit {
    state.withLock { $0.stopListening }?()
  }

  /// The row of `key`, the same for every key of that name.
  func row(_ key: String) -> SharedRow {
    state.withLock { state in
      if let row = state.rows[key] { return row }
      let row = SharedRow(
        key: key,
        backend: backend,
        scheduler: scheduler,
        throttle: throttle,
        playbackQueue: playbackQueue,
        pendingRows: pendingRows
      )
      state.rows[key] = row
      return row
    }
  }

  /// Subscribes to a row, listening to the table while anything is subscribed.
  func subscribe(
    _ row: SharedRow,
    _ onChange: @escaping SharedRow.Subscriber,
    writeBack: @escaping SharedRow.WriteBack
  ) -> @Sendable () -> Void {
    let startsListening = state.withLock { state in
      state.subscriptions += 1
      return state.subscriptions == 1 && state.stopListening == nil
    }
    if startsListening {
      let stop = backend.listen { [weak self] event in
        guard let self else { return }
        playbackQueue.async { self.handle(event) }
      }
      state.withLock { $0.stopListening = stop }
    }
    let unsubscribe = row.subscribe(onChange, writeBack: writeBack)
    return { [weak self] in
      unsubscribe()
      guard let self else { return }
      let stop = state.withLock { state -> (@Sendable () -> Void)? in
        state.subscriptions -= 1
        guard state.subscriptions == 0 else { return nil }
        defer { state.stopListening = nil }
        return state.stopListening
      }
      stop?()
    }
  }

  /// Waits until every notification received so far is handled.
  func waitForPlayback() {
    playbackQueue.sync {}
  }

  private func handle(_ event: ListenEvent) {
    if case .changed(let key, let version) = event {
      let row = state.withLock { $0.rows[key] }
      if let row, row.hasSubscribers { row.notified(version: version) }
      return
    }
    let rows = state.withLock { Array($0.rows.values) }.filter(\.hasSubscribers)
    switch event {
    case .changed:
      break
    case .listening(let afterLoss):
      // NB: Changes made before the connection was up went unheard.
      for row in rows { row.listening(afterLoss: afterLoss) }
    case .lost(let error):
      for row in rows { row.connectionLost(error) }
    }
  }
}
