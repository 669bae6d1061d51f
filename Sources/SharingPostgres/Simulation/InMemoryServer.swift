import Dispatch
import Foundation
import SharingDependencies

/// A stand-in for a PostgreSQL server, in memory: rows with versions drawn at each write from
/// one counter, as from the table's sequence, a notification for every write (its own or
/// "another machine's"), JSON checked as `jsonb` would be, rows locked by transactions, and
/// outages on demand.
final class InMemoryServer: PostgresBackend {
  fileprivate struct State {
    var rows: [String: StoredRow] = [:]
    /// The last version written, of any row: as the table's sequence, never used twice.
    var lastVersion: Int64 = 0
    var isDown = false
    var nextListenerID = 0
    var listeners: [Int: @Sendable (ListenEvent) -> Void] = [:]
    /// One semaphore per row locked by a transaction, or being locked.
    var rowLocks: [String: DispatchSemaphore] = [:]
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
    return try withRowLocked(key) {
      try Self.checkJSON(json)
      let (version, listeners) = try state.withLock { state in
        try state.checkUp()
        if keepsAside, let kept = state.rows[key] {
          state.rows["\(key).corrupt-\(Date.now.ISO8601Format())"] = kept
        }
        return (state.store(json, for: key), Array(state.listeners.values))
      }
      for listener in listeners { listener(.changed(key: key, version: version)) }
      return version
    }
  }

  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data,
    willCommit: (Int64) -> Void
  ) throws -> Int64 {
    try StoredRow.check(key: key, json: missing)
    return try withRowLocked(key) {
      try Self.checkJSON(missing)
      let (row, inserted) = try state.withLock { state in
        try state.checkUp()
        if let row = state.rows[key] { return (row, false) }
        return (StoredRow(json: missing, version: 0), true)
      }
      let json = try body(row, inserted)
      try Self.checkJSON(json)
      let (version, listeners) = try state.withLock { state in
        try state.checkUp()
        let version = state.store(json, for: key)
        // NB: Under the lock: a fetch never finds the new row before the program knows its
        //     version as its own, which a server ensures by committing after 'willCommit'.
        willCommit(version)
        return (version, Array(state.listeners.values))
      }
      for listener in listeners { listener(.changed(key: key, version: version)) }
      return version
    }
  }

  func listen(_ onEvent: @escaping @Sendable (ListenEvent) -> Void) -> @Sendable () -> Void {
    let (id, isDown) = state.withLock { state in
      defer { state.nextListenerID += 1 }
      state.listeners[state.nextListenerID] = onEvent
      return (state.nextListenerID, state.isDown)
    }
    onEvent(isDown ? .lost(State.refused) : .listening(afterLoss: false))
    return { [state] in state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
  }

  // MARK: Simulations

  /// Writes a row as another machine would, in plain SQL.
  func simulateWrite(_ json: Data, for key: String) throws {
    _ = try write(key, json: json, keepsAside: false)
  }

  /// Deletes a row as another machine would.
  func simulateDelete(_ key: String) {
    let listeners = state.withLock { state -> [@Sendable (ListenEvent) -> Void] in
      guard state.rows.removeValue(forKey: key) != nil else { return [] }
      return Array(state.listeners.values)
    }
    for listener in listeners { listener(.changed(key: key, version: nil)) }
  }

  /// Takes the server down or brings it back up.
  func simulateOutage(_ isDown: Bool) {
    let listeners = state.withLock { state -> [@Sendable (ListenEvent) -> Void] in
      guard state.isDown != isDown else { return [] }
      state.isDown = isDown
      return Array(state.listeners.values)
    }
    for listener in listeners {
      listener(isDown ? .lost(State.refused) : .listening(afterLoss: true))
    }
  }

  /// The rows, for inspection.
  var rows: [String: StoredRow] {
    state.withLock(\.rows)
  }

  // MARK: Helpers

  private func withRowLocked<R>(_ key: String, _ body: () throws -> R) throws -> R {
    // NB: A semaphore rather than a lock: it stands for the server's row lock, which a
    //     transaction holds while its body runs, as `SELECT … FOR UPDATE` does.
    let semaphore = state.withLock { state in
      if let semaphore = state.rowLocks[key] { return semaphore }
      let semaphore = DispatchSemaphore(value: 1)
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

extension InMemoryServer.State {
  static let refused = PostgresError(
    "connection to the in-memory server failed: it is down (simulated outage)"
  )

  func checkUp() throws {
    if isDown { throw Self.refused }
  }

  mutating func store(_ json: Data, for key: String) -> Int64 {
    lastVersion += 1
    rows[key] = StoredRow(json: json, version: lastVersion)
    return lastVersion
  }
}
