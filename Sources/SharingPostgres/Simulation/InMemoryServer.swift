import Foundation
import SharingDependencies

/// A stand-in for a PostgreSQL server, in memory: rows with versions drawn at each write from
/// one counter, as from the table's sequence, a notification for every write (its own or
/// "another machine's") to the listeners of the key's bucket, JSON checked as `jsonb` would
/// be, rows locked by transactions, and outages on demand.
final class InMemoryServer: PostgresBackend {
  fileprivate struct State {
    var rows: [String: StoredRow] = [:]
    /// The last version written, of any row: as the table's sequence, never used twice.
    var lastVersion: Int64 = 0
    var isDown = false
    var nextListenerID = 0
    var listeners: [Int: Listener] = [:]
    /// One semaphore per row locked by a transaction, or being locked.
    var rowLocks: [String: DispatchSemaphore] = [:]

    /// The error of every call while the server is down.
    static let refused = PostgresError(
      "connection to the in-memory server failed: it is down (simulated outage)"
    )

    /// Throws ``refused`` while the server is down.
    func checkUp() throws {
      if isDown { throw Self.refused }
    }

    /// Who hears the changes of `key`: the listeners of its bucket.
    func listeners(of key: String) -> [@Sendable (ListenEvent) -> Void] {
      let bucket = KeyBuckets.bucket(of: key)
      return listeners.sorted { $0.key < $1.key }.map(\.value)
        .filter { $0.buckets.contains(bucket) }.map(\.onEvent)
    }
  }

  fileprivate struct Listener {
    var buckets: Set<Int>
    let onEvent: @Sendable (ListenEvent) -> Void

    /// Tells the listener that the server is down, or that it listens to its buckets.
    func connected(isDown: Bool, afterLoss: Bool) {
      guard !isDown else { return onEvent(.lost(State.refused)) }
      onEvent(.listened(buckets: buckets))
      onEvent(.listening(afterLoss: afterLoss))
    }
  }

  private let state = Locked(State())

  func fetch(_ key: String) throws -> StoredRow? {
    try StoredRow.check(key: key)
    return try state.withLock { state in
      try state.checkUp()
      return state.rows[key]
    }
  }

  func write(_ key: String, json: Data, keepsAside: Bool) throws -> Int64 {
    try StoredRow.check(key: key, json: json)
    return try withRowLocked(key) { try commit(json, for: key, keepingAside: keepsAside) }
  }

  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data
  ) throws -> Int64 {
    try StoredRow.check(key: key, json: missing)
    return try withRowLocked(key) {
      try Self.checkJSON(missing)
      let (row, inserted) = try state.withLock { state in
        try state.checkUp()
        if let row = state.rows[key] { return (row, false) }
        return (StoredRow(json: missing, version: 0), true)
      }
      return try commit(try body(row, inserted), for: key)
    }
  }

  func listen(
    to buckets: @escaping @Sendable () -> Set<Int>,
    _ onEvent: @escaping @Sendable (ListenEvent) -> Void
  ) -> any ListenSession {
    let listener = Listener(buckets: buckets(), onEvent: onEvent)
    let (id, isDown) = state.withLock { state in
      defer { state.nextListenerID += 1 }
      state.listeners[state.nextListenerID] = listener
      return (state.nextListenerID, state.isDown)
    }
    listener.connected(isDown: isDown, afterLoss: false)
    return Session(server: self, id: id, buckets: buckets)
  }

  /// A listener's session: its buckets change at once.
  private struct Session: ListenSession {
    let server: InMemoryServer
    let id: Int
    let buckets: @Sendable () -> Set<Int>

    func bucketsChanged() {
      let listened = buckets()
      let heard = server.state.withLock { state -> (@Sendable (ListenEvent) -> Void)? in
        state.listeners[id]?.buckets = listened
        return state.isDown ? nil : state.listeners[id]?.onEvent
      }
      heard?(.listened(buckets: listened))
    }

    func stop() {
      server.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
    }
  }

  // MARK: Simulations

  /// Deletes a row as another machine would.
  func simulateDelete(_ key: String) {
    let listeners = state.withLock { state -> [@Sendable (ListenEvent) -> Void] in
      guard state.rows.removeValue(forKey: key) != nil else { return [] }
      return state.listeners(of: key)
    }
    for listener in listeners { listener(.changed(key: key, version: nil)) }
  }

  /// Takes the server down or brings it back up.
  func simulateOutage(_ isDown: Bool) {
    let listeners = state.withLock { state -> [Listener] in
      guard state.isDown != isDown else { return [] }
      state.isDown = isDown
      return state.listeners.sorted { $0.key < $1.key }.map(\.value)
    }
    for listener in listeners { listener.connected(isDown: isDown, afterLoss: true) }
  }

  /// The rows, for inspection.
  var rows: [String: StoredRow] {
    state.withLock(\.rows)
  }

  // MARK: Helpers

  /// Stores `json` as the row of `key`, with a version drawn from the counter, and notifies
  /// the listeners of the key's bucket; if `keepingAside`, the row's value is kept first under
  /// `<key>.corrupt-<timestamp>`. Fails as `jsonb` does if `json` is not JSON.
  private func commit(_ json: Data, for key: String, keepingAside: Bool = false) throws -> Int64 {
    try Self.checkJSON(json)
    let (version, listeners) = try state.withLock { state in
      try state.checkUp()
      if keepingAside, let kept = state.rows[key] {
        state.rows["\(key).corrupt-\(Date.now.ISO8601Format())"] = kept
      }
      state.lastVersion += 1
      state.rows[key] = StoredRow(json: json, version: state.lastVersion)
      return (state.lastVersion, state.listeners(of: key))
    }
    for listener in listeners { listener(.changed(key: key, version: version)) }
    return version
  }

  private func withRowLocked<R>(_ key: String, _ body: () throws -> R) throws -> R {
    // NB: A semaphore rather than a lock: it stands for the server's row lock, which a
    //     transaction holds while its body runs, as `SELECT … FOR UPDATE` does.
    let semaphore = state.withLock { state in
      let semaphore = state.rowLocks[key] ?? DispatchSemaphore(value: 1)
      state.rowLocks[key] = semaphore
      return semaphore
    }
    semaphore.wait()
    defer { semaphore.signal() }
    return try body()
  }

  /// Fails as `jsonb` input does for text that is not JSON.
  private static func checkJSON(_ json: Data) throws {
    guard (try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)) != nil
    else {
      throw PostgresError("invalid input syntax for type json", sqlState: "22P02")
    }
  }
}
