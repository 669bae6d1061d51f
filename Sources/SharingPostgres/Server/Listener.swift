import Foundation
import SharingDependencies
import SharingPersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread holding one connection that `LISTEN`s to a channel (the `listen` statement), reconnecting with backoff
/// when the connection is lost, until stopped.
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
    listen: String,
    prepare: @escaping @Sendable (Connection) throws -> Void,
    onEvent: @escaping @Sendable (Event) -> Void
  ) {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    (wakeRead, wakeWrite) = (fds[0], fds[1])
    let thread = Thread { [self] in
      run(connectionString: connectionString, listen: listen, prepare: prepare, onEvent)
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

  private func run(
    connectionString: String,
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
    while !isStopped.withLock({ $0 }) {
      let connection: Connection
      do {
        connection = try Connection(connectionString)
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
      while !isStopped.withLock({ $0 }) {
        guard waitForWake(orSocket: connection.socket, timeout: nil) else { continue }
        do {
          for notification in try connection.takeNotifications() {
            onEvent(.notification(payload: notification.payload))
          }
        } catch {
          onEvent(.lost(error as? PostgresError ?? PostgresError("\(error)")))
          isLost = true
          break
        }
      }
    }
  }

  /// Waits until the socket is readable (`true`), or until ``stop()`` or the timeout (`false`).
  private func waitForWake(orSocket socket: Int32?, timeout: Duration?) -> Bool {
    var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    if let socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
    let milliseconds = timeout.map { Int32($0 / .milliseconds(1)) } ?? -1
    _ = poll(&fds, nfds_t(fds.count), milliseconds)
    return fds.count > 1 && fds[1].revents != 0
  }
}
