import SharingDependencies

/// Connections to one server, lent to one borrower at a time so that no lock is held while a
/// statement runs; a few idle ones are kept, broken ones are dropped.
final class ConnectionPool: Sendable {
  private let connectionString: String
  private let idle = Locked<[Connection]>([])
  private static let idleLimit = 4

  init(connectionString: String) {
    self.connectionString = connectionString
  }

  /// Runs `body` with a connection of its own, opening one if none is idle.
  func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
    let connection = try idleConnection() ?? Connection(connectionString)
    defer {
      if !connection.isBroken {
        idle.withLock { idle in
          if idle.count < Self.idleLimit { idle.append(connection) }
        }
      }
    }
    return try body(connection)
  }

  /// An idle connection the server has not closed meanwhile (e.g. by restarting).
  private func idleConnection() -> Connection? {
    while let connection = idle.withLock({ $0.popLast() }) {
      if connection.isAlive { return connection }
    }
    return nil
  }
}
