import Dispatch
import SharingDependencies
import SharingPersistence

/// The table's one listening connection, open while any row of it is watched, and the rows
/// it tells of changes, one notification at a time.
final class TableListener: Sendable {
  private let backend: any PostgresBackend
  /// Where notifications are handled, one at a time.
  private let queue = DispatchQueue(label: "SharingPostgres.notifications")
  /// What to tell the records when the connection is up again, or lost.
  private let onConnection: @Sendable (ListenEvent) -> Void
  private let state = Locked(State())

  private struct State {
    var watchers: [String: [Int: @Sendable (Int64?) -> Void]] = [:]
    var nextID = 0
    var stopListening: (@Sendable () -> Void)?
    var isListening = false
  }

  init(backend: any PostgresBackend, onConnection: @escaping @Sendable (ListenEvent) -> Void) {
    self.backend = backend
    self.onConnection = onConnection
  }

  deinit {
    state.withLock { $0.stopListening }?()
  }

  /// Calls `onChange` with the new version of the row of `key` (`nil`: deleted) whenever
  /// it is written, until the returned watch is stopped.
  func watch(_ key: String, _ onChange: @escaping @Sendable (Int64?) -> Void) -> any RecordWatch {
    let (id, startsListening) = state.withLock { state in
      defer { state.nextID += 1 }
      state.watchers[key, default: [:]][state.nextID] = onChange
      return (state.nextID, state.stopListening == nil)
    }
    if startsListening {
      let stop = backend.listen { [weak self] event in
        guard let self else { return }
        queue.async { self.handle(event) }
      }
      state.withLock { $0.stopListening = stop }
    }
    return Watch(listener: self, key: key, id: id)
  }

  /// Waits until every notification received so far is handled.
  func waitForNotifications() {
    queue.sync {}
  }

  private func handle(_ event: ListenEvent) {
    switch event {
    case .changed(let key, let version):
      let watchers = state.withLock { $0.watchers[key]?.sorted { $0.key < $1.key } ?? [] }
      for (_, onChange) in watchers { onChange(version) }
    case .listening:
      state.withLock { $0.isListening = true }
      onConnection(event)
    case .lost:
      state.withLock { $0.isListening = false }
      onConnection(event)
    }
  }

  private func stopWatching(_ key: String, id: Int) {
    let stop = state.withLock { state -> (@Sendable () -> Void)? in
      state.watchers[key]?[id] = nil
      if state.watchers[key]?.isEmpty == true { state.watchers[key] = nil }
      guard state.watchers.isEmpty else { return nil }
      state.isListening = false
      defer { state.stopListening = nil }
      return state.stopListening
    }
    stop?()
  }

  private struct Watch: RecordWatch {
    let listener: TableListener
    let key: String
    let id: Int

    var isLive: Bool { listener.state.withLock(\.isListening) }

    func stop() { listener.stopWatching(key, id: id) }
  }
}
