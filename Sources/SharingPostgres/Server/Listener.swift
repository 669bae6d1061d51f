import CLibPQ
import Foundation
import SharingDependencies
import SharingPersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread holding one connection that `LISTEN`s to a channel (the `listen` statement),
/// reconnecting with backoff when the connection is lost, until stopped.
///
/// The connection is checked while it is quiet: once nothing was heard on it for a quarter of
/// the timeout, an empty query is sent, and the connection is given up on if nothing is heard
/// within the timeout — a server that stopped answering, or a network that stopped carrying
/// packets, is noticed within the timeout.
final class Listener: Sendable {
  /// What the listener reports.
  enum Event: Sendable {
    case notification(payload: String)
    case listening(afterLoss: Bool)
    case lost(PostgresError)
  }

  private let isStopped = Locked(false)
  /// Written to by ``stop()`` to wake the thread from `poll`.
  private let wakeRead: Int32
  private let wakeWrite: Int32

  init(
    connectionString: String,
    timeout: Duration,
    listen: String,
    prepare: @escaping @Sendable (Connection) throws -> Void,
    onEvent: @escaping @Sendable (Event) -> Void
  ) {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    (wakeRead, wakeWrite) = (fds[0], fds[1])
    let thread = Thread { [self] in
      run(connectionString, timeout, listen: listen, prepare: prepare, onEvent)
    }
    thread.name = "SharingPostgres.Listener"
    thread.start()
  }

  /// Ends the thread, which closes its connection.
  func stop() {
    let wasStopped = isStopped.withLock { isStopped in
      defer { isStopped = true }
      return isStopped
    }
    // NB: Once stopped, the thread closes the pipe: its descriptor may be reused.
    guard !wasStopped else { return }
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  private var shouldRun: Bool { !isStopped.withLock { $0 } }

  private func run(
    _ connectionString: String,
    _ timeout: Duration,
    listen: String,
    prepare: (Connection) throws -> Void,
    _ onEvent: (Event) -> Void
  ) {
    defer {
      close(wakeRead)
      close(wakeWrite)
    }
    var backoff = Backoff()
    var isLost = false
    while shouldRun {
      let connection: Connection
      do {
        connection = try Connection(connectionString, timeout: timeout)
        try prepare(connection)
        try connection.execute(listen)
      } catch {
        if !isLost { onEvent(.lost(error as? PostgresError ?? PostgresError("\(error)"))) }
        isLost = true
        _ = waitForWake(orSocket: nil, timeout: backoff.next())
        continue
      }
      onEvent(.listening(afterLoss: isLost))
      isLost = false
      backoff.reset()
      do {
        try follow(connection, onEvent)
      } catch {
        onEvent(.lost(error as? PostgresError ?? PostgresError("\(error)")))
        isLost = true
      }
    }
  }

  /// Reports notifications until stopped, checking that the server still answers.
  private func follow(_ connection: Connection, _ onEvent: (Event) -> Void) throws {
    let quiet = connection.timeout / 4
    var lastHeard = ContinuousClock.now
    var isChecking = false
    while shouldRun {
      let silence = ContinuousClock.now - lastHeard
      if silence >= connection.timeout {
        throw PostgresError.timedOut(after: connection.timeout, "checking the listening connection")
      }
      if !isChecking, silence >= quiet {
        guard PQsendQuery(connection.handle, "") == 1 else { throw connection.error() }
        try connection.flush()
        isChecking = true
      }
      let wait = (isChecking ? connection.timeout : quiet) - silence
      guard waitForWake(orSocket: connection.socket, timeout: max(wait, .milliseconds(1))) else {
        continue
      }
      guard PQconsumeInput(connection.handle) == 1 else { throw connection.error() }
      lastHeard = .now
      while PQisBusy(connection.handle) == 0, let result = PQgetResult(connection.handle) {
        PQclear(result)
        isChecking = false
      }
      while let notification = PQnotifies(connection.handle) {
        onEvent(.notification(payload: String(cString: notification.pointee.extra)))
        PQfreemem(notification)
      }
    }
  }

  /// Waits until the socket is readable (`true`), or until ``stop()`` or the timeout (`false`).
  private func waitForWake(orSocket socket: Int32?, timeout: Duration) -> Bool {
    var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    if let socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
    let milliseconds = Int32((timeout / .milliseconds(1)).rounded(.up))
    _ = poll(&fds, nfds_t(fds.count), milliseconds)
    return fds.count > 1 && fds[1].revents != 0
  }
}
