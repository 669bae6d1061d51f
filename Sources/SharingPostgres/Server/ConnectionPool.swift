import Dispatch
import SharingDependencies

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
  private let state = Locked(State())

  private struct State {
    var idle: [Connection] = []
    /// Connections open or being opened, lent or idle.
    var count = 0
    var waiters: [Waiter] = []
    var lastFailure: (error: PostgresError, time: ContinuousClock.Instant)?
  }

  /// A borrower waiting for a connection, or for the right to open one (`nil`).
  private final class Waiter: @unchecked Sendable {
    // NB: Unchecked: 'grant' is written under the pool's lock before 'semaphore' is signaled,
    //     and read after, or under the lock.
    let semaphore = DispatchSemaphore(value: 0)
    var grant: Connection??
  }

  init(connectionString: String, limit: Int, timeout: Duration) {
    self.connectionString = connectionString
    self.limit = max(1, limit)
    self.timeout = timeout
  }

  /// Runs `body` with a connection of its own: an idle one, a new one, or, at the limit, the
  /// first one given back within the timeout.
  func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
    let connection = try borrow()
    defer { giveBack(connection) }
    return try body(connection)
  }

  /// Forgets a failure to connect: the server answered on another connection.
  func serverAnswered() {
    state.withLock { $0.lastFailure = nil }
  }

  private func borrow() throws -> Connection {
    enum Next {
      case use(Connection), open, wait(Waiter), fail(PostgresError)
    }
    let now = ContinuousClock.now
    let next = state.withLock { state -> Next in
      if let failure = state.lastFailure, now - failure.time < timeout {
        return .fail(failure.error)
      }
      if let connection = state.idle.popLast() { return .use(connection) }
      guard state.count < limit else {
        let waiter = Waiter()
        state.waiters.append(waiter)
        return .wait(waiter)
      }
      state.count += 1
      return .open
    }
    switch next {
    case .use(let connection):
      guard connection.isAlive else {
        drop()
        return try borrow()
      }
      return connection
    case .open:
      return try open()
    case .wait(let waiter):
      return try wait(waiter)
    case .fail(let error):
      throw error
    }
  }

  private func open() throws -> Connection {
    do {
      let connection = try Connection(connectionString, timeout: timeout)
      serverAnswered()
      return connection
    } catch {
      let error = error as? PostgresError ?? PostgresError("\(error)")
      state.withLock { $0.lastFailure = (error, .now) }
      drop()
      throw error
    }
  }

  private func wait(_ waiter: Waiter) throws -> Connection {
    let nanoseconds = Int(timeout / .nanoseconds(1))
    if waiter.semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
      let gaveUp = state.withLock { state in
        guard let index = state.waiters.firstIndex(where: { $0 === waiter }) else { return false }
        state.waiters.remove(at: index)
        return true
      }
      if gaveUp {
        throw PostgresError.timedOut(
          after: timeout,
          "waiting for one of the \(limit) connections of the database"
        )
      }
      // NB: Granted just as the wait ended: the grant is taken below.
      waiter.semaphore.wait()
    }
    if case .some(let connection?) = waiter.grant { return connection }
    // NB: Given the right to open a connection, after waiting: connecting may have failed
    //     meanwhile.
    if let failure = state.withLock({ $0.lastFailure }),
      ContinuousClock.now - failure.time < timeout
    {
      drop()
      throw failure.error
    }
    return try open()
  }

  private func giveBack(_ connection: Connection) {
    guard !connection.isBroken else { return drop() }
    let waiter = state.withLock { state -> Waiter? in
      guard !state.waiters.isEmpty else {
        state.idle.append(connection)
        return nil
      }
      let waiter = state.waiters.removeFirst()
      waiter.grant = .some(connection)
      return waiter
    }
    waiter?.semaphore.signal()
  }

  /// Forgets a connection that was dropped or never opened: a waiter may open one instead.
  private func drop() {
    let waiter = state.withLock { state -> Waiter? in
      guard !state.waiters.isEmpty else {
        state.count -= 1
        return nil
      }
      let waiter = state.waiters.removeFirst()
      waiter.grant = .some(nil)
      return waiter
    }
    waiter?.semaphore.signal()
  }
}
