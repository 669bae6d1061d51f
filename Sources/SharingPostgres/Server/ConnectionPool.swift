import Dispatch
import SharingDependencies
import SharingPersistence

/// At most `limit` connections to one server, each lent to one borrower at a time so that no
/// lock is held while a statement runs; idle ones are kept, broken ones dropped.
///
/// A borrower waits for a connection at most the timeout. Once connecting failed, borrowers
/// fail at once with that error for as long as the timeout, unless the server is heard from
/// meanwhile (``serverAnswered()``): when the server cannot be reached, a burst of statements
/// fails within the timeout rather than one timeout after another.
final class ConnectionPool: Sendable {
  private let connectionString: String
  private let limit: Int
  private let timeout: Duration
  /// One permit per borrower: a connection is opened only when none is idle, so the
  /// connections open, lent or idle, are never more than the permits.
  private let permits: DispatchSemaphore
  private let state = Locked(State())

  private struct State {
    var idle: [Connection] = []
    var lastFailure: (error: PostgresError, time: ContinuousClock.Instant)?
  }

  init(connectionString: String, limit: Int, timeout: Duration) {
    self.connectionString = connectionString
    self.limit = max(1, limit)
    self.timeout = timeout
    self.permits = DispatchSemaphore(value: self.limit)
  }

  /// Runs `body` with a connection of its own: an idle one, a new one, or, at the limit, the
  /// first one given back within the timeout.
  func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
    try throwRecentFailure()
    guard permits.wait(timeout: .now() + timeout.dispatchInterval) == .success else {
      throw PostgresError.timedOut(
        after: timeout,
        "waiting for one of the \(limit) connections of the database"
      )
    }
    defer { permits.signal() }
    let connection = try borrow()
    defer { giveBack(connection) }
    return try body(connection)
  }

  /// Forgets a failure to connect: the server answered on another connection.
  func serverAnswered() {
    state.withLock { $0.lastFailure = nil }
  }

  /// Throws the error of a failure to connect less than the timeout ago.
  private func throwRecentFailure() throws {
    if let failure = state.withLock({ $0.lastFailure }),
      ContinuousClock.now - failure.time < timeout
    {
      throw failure.error
    }
  }

  /// An idle connection that is still alive, or a new one; the caller holds a permit.
  private func borrow() throws -> Connection {
    while let connection = state.withLock({ $0.idle.popLast() }) {
      if connection.isAlive { return connection }
    }
    // The permit may have come after a wait, during which connecting may have failed.
    try throwRecentFailure()
    do {
      let connection = try Connection(connectionString, timeout: timeout)
      serverAnswered()
      return connection
    } catch {
      let error = error as? PostgresError ?? PostgresError("\(error)")
      state.withLock { $0.lastFailure = (error, .now) }
      throw error
    }
  }

  private func giveBack(_ connection: Connection) {
    guard !connection.isBroken else { return }
    state.withLock { $0.idle.append(connection) }
  }
}
