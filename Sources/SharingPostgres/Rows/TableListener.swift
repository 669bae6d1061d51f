import Dispatch
import SharingDependencies
import SharingPersistence

/// The table's one listening connection, open while any row of it is watched and listening
/// only to the buckets of the watched rows' keys (``KeyBuckets``), and the rows it tells of
/// changes.
///
/// A row whose bucket the connection starts to listen to while it is up is told that it may
/// have changed, once its bucket is heard: a change committed between the row's first read
/// and then would otherwise go unnoticed. What the connection hears is handled in batches:
/// all that arrived while the last batch was handled, each key told only of its last change.
final class TableListener: Sendable {
  private let backend: any PostgresBackend
  /// Where heard events are handled, one batch at a time.
  private let queue = DispatchQueue(label: "SharingPostgres.notifications")
  /// What to tell the records when the connection is up again, or lost.
  private let onConnection: @Sendable (ListenEvent) -> Void
  private let state = Locked(State())

  private struct State {
    var keys: [String: WatchedKey] = [:]
    /// How many watched keys each bucket has.
    var keysInBucket: [Int: Int] = [:]
    var nextID = 0
    /// `nil` while no key is watched.
    var session: Session?
    var isListening = false
    /// The buckets whose changes the connection hears.
    var heard: Set<Int> = []
    /// Events heard and not handled yet, with the generation of the session that heard them.
    var received: [(generation: Int, event: ListenEvent)] = []
  }

  private struct WatchedKey {
    let bucket: Int
    var watchers: [Int: @Sendable (Int64?) -> Void] = [:]
  }

  private enum Session {
    /// Being started by a thread, outside the lock; each start has a generation of its own.
    case starting(generation: Int)
    case started(any ListenSession, generation: Int)

    var generation: Int {
      switch self {
      case .starting(let generation), .started(_, let generation): generation
      }
    }
  }

  init(backend: any PostgresBackend, onConnection: @escaping @Sendable (ListenEvent) -> Void) {
    self.backend = backend
    self.onConnection = onConnection
  }

  deinit {
    if case .started(let session, _) = state.withLock(\.session) { session.stop() }
  }

  /// Calls `onChange` with the new version of the row of `key` (`nil`: deleted, or unknown)
  /// whenever it may have been written, until the returned watch is stopped.
  func watch(_ key: String, _ onChange: @escaping @Sendable (Int64?) -> Void) -> any RecordWatch {
    let bucket = KeyBuckets.bucket(of: key)
    // What to do with the session, once the lock is released.
    let (id, then) = state.withLock { state -> (Int, (() -> Void)?) in
      let id = state.nextID
      state.nextID += 1
      let isNewKey = state.keys[key] == nil
      state.keys[key, default: WatchedKey(bucket: bucket)].watchers[id] = onChange
      if isNewKey { state.keysInBucket[bucket, default: 0] += 1 }
      switch state.session {
      case nil:
        state.session = .starting(generation: id)
        return (id, { self.start(generation: id) })
      case .starting:
        // The thread starting the session asks for the buckets once it started it.
        return (id, nil)
      case .started(let session, _):
        guard isNewKey, state.keysInBucket[bucket] == 1 else { return (id, nil) }
        return (id, { session.bucketsChanged() })
      }
    }
    then?()
    return Watch(listener: self, key: key, bucket: bucket, id: id)
  }

  /// Whether the connection listens, and to which buckets, for a test's failure message.
  var stateDescription: String {
    state.withLock { state in
      "listening: \(state.isListening), heard: \(state.heard.sorted()), watched: "
        + "\(state.keysInBucket.keys.sorted())"
    }
  }

  /// Waits until every notification received so far is handled.
  func waitForNotifications() {
    queue.sync {}
  }

  private func start(generation: Int) {
    let session = backend.listen(
      to: { [weak self] in self?.state.withLock { Set($0.keysInBucket.keys) } ?? [] }
    ) { [weak self] event in
      self?.receive(event, generation: generation)
    }
    let isWanted = state.withLock { state in
      guard case .starting(generation) = state.session else { return false }
      state.session = .started(session, generation: generation)
      return true
    }
    // NB: Keys watched while the session started may be in buckets it did not ask for.
    isWanted ? session.bucketsChanged() : session.stop()
  }

  private func receive(_ event: ListenEvent, generation: Int) {
    let isFirst = state.withLock { state in
      state.received.append((generation, event))
      return state.received.count == 1
    }
    if isFirst { queue.async { self.handleReceived() } }
  }

  /// Handles what was heard since the last batch, in order, telling each key only of the last
  /// of the changes heard one after another.
  private func handleReceived() {
    let (received, current) = state.withLock { state in
      defer { state.received = [] }
      return (state.received, state.session?.generation)
    }
    var changes: [String: Int64?] = [:]
    var order: [String] = []
    for (generation, event) in received where generation == current {
      guard case .changed(let key, let version) = event else {
        tell(changes, in: order)
        (changes, order) = ([:], [])
        handle(event)
        continue
      }
      if changes.updateValue(version, forKey: key) == nil { order.append(key) }
    }
    tell(changes, in: order)
  }

  private func tell(_ changes: [String: Int64?], in order: [String]) {
    guard !changes.isEmpty else { return }
    let told = state.withLock { state in
      order.flatMap { key in
        (state.keys[key]?.watchers.sorted { $0.key < $1.key } ?? []).map { ($0.value, key) }
      }
    }
    for (onChange, key) in told { onChange(changes[key] ?? nil) }
  }

  private func handle(_ event: ListenEvent) {
    switch event {
    case .changed:
      break
    case .listened(let buckets):
      let readAgain = state.withLock { state -> [@Sendable (Int64?) -> Void] in
        let newlyHeard = buckets.subtracting(state.heard)
        state.heard = buckets
        guard state.isListening, !newlyHeard.isEmpty else { return [] }
        return state.keys.values.filter { newlyHeard.contains($0.bucket) }
          .flatMap { $0.watchers.values }
      }
      for onChange in readAgain { onChange(nil) }
    case .listening:
      state.withLock { $0.isListening = true }
      onConnection(event)
    case .lost:
      state.withLock { state in
        state.isListening = false
        state.heard = []
      }
      onConnection(event)
    }
  }

  private func stopWatching(_ key: String, bucket: Int, id: Int) {
    // What to do with the session, once the lock is released.
    let then = state.withLock { state -> (() -> Void)? in
      guard state.keys[key]?.watchers.removeValue(forKey: id) != nil,
        state.keys[key]?.watchers.isEmpty == true
      else { return nil }
      state.keys[key] = nil
      state.keysInBucket[bucket, default: 1] -= 1
      let isBucketLeft = state.keysInBucket[bucket] == 0
      if isBucketLeft {
        state.keysInBucket[bucket] = nil
        state.heard.remove(bucket)
      }
      guard state.keys.isEmpty else {
        guard isBucketLeft, case .started(let session, _) = state.session else { return nil }
        return { session.bucketsChanged() }
      }
      state.isListening = false
      state.heard = []
      defer { state.session = nil }
      guard case .started(let session, _) = state.session else { return nil }
      return { session.stop() }
    }
    then?()
  }

  private struct Watch: RecordWatch {
    let listener: TableListener
    let key: String
    let bucket: Int
    let id: Int

    var isLive: Bool {
      listener.state.withLock { $0.isListening && $0.heard.contains(bucket) }
    }

    func stop() { listener.stopWatching(key, bucket: bucket, id: id) }
  }
}
