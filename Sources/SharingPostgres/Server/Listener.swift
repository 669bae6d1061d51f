import CLibPQ
import Foundation
import SharingDependencies
import SharingPersistence

/// A thread holding one connection that listens to the channels of some buckets of keys,
/// reconnecting with backoff when the connection is lost, until stopped.
///
/// The buckets are asked for when it connects, and again after ``bucketsChanged()``; each
/// time they differ from those listened to, the backend makes the connection listen to them
/// (``ServerBackend/register(_:listeningTo:)``), and ``ListenEvent/listened(buckets:)`` says
/// so.
///
/// The connection is checked while it is quiet: once nothing was heard on it for a quarter of
/// the timeout, an empty query is sent, and the connection is given up on if nothing is heard
/// within the timeout — a server that stopped answering, or a network that stopped carrying
/// packets, is noticed within the timeout.
final class Listener: ListenSession {
  /// Connects, readies the connection and registers its buckets.
  private let backend: ServerBackend
  /// The buckets to listen to.
  private let buckets: @Sendable () -> Set<Int>
  private let onEvent: @Sendable (ListenEvent) -> Void
  private let state = Locked(State())
  /// Written to by ``stop()`` and ``bucketsChanged()`` to wake the thread from `poll`.
  private let wakeRead: Int32
  private let wakeWrite: Int32

  private struct State {
    var isStopped = false
    var bucketsChanged = false
    /// Set by the thread as it closes the pipe, whose descriptors may then be reused.
    var isClosed = false
  }

  init(
    backend: ServerBackend,
    buckets: @escaping @Sendable () -> Set<Int>,
    onEvent: @escaping @Sendable (ListenEvent) -> Void
  ) {
    self.backend = backend
    self.buckets = buckets
    self.onEvent = onEvent
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    (wakeRead, wakeWrite) = (fds[0], fds[1])
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    let thread = Thread { [self] in run() }
    thread.name = "SharingPostgres.Listener"
    thread.start()
  }

  /// Ends the thread, which closes its connection.
  func stop() {
    wake { $0.isStopped = true }
  }

  func bucketsChanged() {
    wake { $0.bucketsChanged = true }
  }

  /// Changes the state and wakes the thread, unless it closed the pipe. The pipe does not
  /// block: writing to it under the lock takes no time.
  private func wake(_ change: (inout State) -> Void) {
    state.withLock { state in
      change(&state)
      guard !state.isClosed else { return }
      var byte: UInt8 = 1
      _ = write(wakeWrite, &byte, 1)
    }
  }

  private var shouldRun: Bool { !state.withLock(\.isStopped) }

  /// Whether the buckets changed since last asked; they are asked for right after.
  private func takeBucketsChanged() -> Bool {
    state.withLock { state in
      defer { state.bucketsChanged = false }
      return state.bucketsChanged
    }
  }

  private func run() {
    defer {
      state.withLock { state in
        state.isClosed = true
        close(wakeRead)
        close(wakeWrite)
      }
    }
    var backoff = Backoff()
    var isLost = false
    while shouldRun {
      var isListening = false
      do {
        let configuration = backend.configuration
        let connection = try Connection(
          configuration.listeningConnectionString ?? configuration.connectionString,
          timeout: configuration.timeout
        )
        try backend.prepare(listening: connection)
        _ = takeBucketsChanged()
        let listened = buckets()
        try backend.register(connection, listeningTo: listened)
        onEvent(.listened(buckets: listened))
        onEvent(.listening(afterLoss: isLost))
        isListening = true
        isLost = false
        backoff.reset()
        try follow(connection, listening: listened)
      } catch {
        if !isLost { onEvent(.lost(error as? PostgresError ?? PostgresError("\(error)"))) }
        isLost = true
        // A lost connection is made again at once; one that could not be made, after a while.
        if !isListening { _ = waitForWake(orSocket: nil, timeout: backoff.next()) }
      }
    }
  }

  /// Reports notifications until stopped, listening to the buckets asked for, and checking
  /// that the server still answers.
  private func follow(_ connection: Connection, listening initial: Set<Int>) throws {
    let quiet = connection.timeout / 4
    var listened = initial
    var lastHeard = ContinuousClock.now
    var isChecking = false
    while shouldRun {
      if !isChecking, takeBucketsChanged() {
        let wanted = buckets()
        if wanted != listened {
          try backend.register(connection, listeningTo: wanted)
          listened = wanted
          lastHeard = .now
          report(connection)
          onEvent(.listened(buckets: wanted))
        }
      }
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
      let socket = PQsocket(connection.handle)
      guard waitForWake(orSocket: socket, timeout: max(wait, .milliseconds(1))) else {
        continue
      }
      guard PQconsumeInput(connection.handle) == 1 else { throw connection.error() }
      lastHeard = .now
      while PQisBusy(connection.handle) == 0, let result = PQgetResult(connection.handle) {
        PQclear(result)
        isChecking = false
      }
      report(connection)
    }
  }

  /// Reports the notifications libpq has read, each payload `<version> <key>`.
  private func report(_ connection: Connection) {
    while let notification = PQnotifies(connection.handle) {
      let payload = String(cString: notification.pointee.extra)
      PQfreemem(notification)
      let parts = payload.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
      let key = parts.count > 1 ? String(parts[1]) : ""
      let version = Int64(parts[0]) ?? 0
      onEvent(.changed(key: key, version: version == 0 ? nil : version))
    }
  }

  /// Waits until the socket is readable (`true`), or until woken or the timeout (`false`).
  private func waitForWake(orSocket socket: Int32?, timeout: Duration) -> Bool {
    var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    if let socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
    let milliseconds = Int32((timeout / .milliseconds(1)).rounded(.up))
    _ = poll(&fds, nfds_t(fds.count), milliseconds)
    if fds[0].revents != 0 {
      var bytes = [UInt8](repeating: 0, count: 64)
      while read(wakeRead, &bytes, bytes.count) > 0 {}
    }
    return fds.count > 1 && fds[1].revents != 0
  }
}
