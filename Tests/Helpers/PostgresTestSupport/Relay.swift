import Foundation
import SharingDependencies

/// A TCP relay between clients and a server, for tests of bad networks: it listens on
/// 127.0.0.1 and forwards each connection to the server, adding a delay each way, stalling
/// (holding every byte, as a network partition would), or cutting connections.
///
/// ```swift
/// let relay = try Relay(to: cluster)
/// relay.delay = .milliseconds(25)   // 50 ms round trips
/// relay.isStalled = true            // nothing gets through, connections stay open
/// relay.cutConnections()            // as when the server restarts
/// relay.cutConnection(beforeAnswer: "COMMIT")   // committed, and the answer lost
/// ```
///
/// Each connection is two threads per direction: one reads, one writes what is due.
public final class Relay: Sendable {
  /// The port clients connect to, on 127.0.0.1.
  public let port: Int
  private let target: Target
  private let listener: Int32
  private let state = Locked(State())

  private struct State {
    var delay = Duration.zero
    var isStalled = false
    var isStopped = false
    var links: [Int: Link] = [:]
    var nextLink = 0
    var turns = 0
    var sent: [UInt8]?
    /// An answer of the server's whose connection is cut before it passes.
    var cutBefore: [UInt8]?
  }

  /// Where the relay forwards to: a Unix socket or a TCP port on 127.0.0.1.
  public enum Target: Sendable {
    case unixSocket(String)
    case loopback(port: Int)
  }

  /// A relay to a cluster's Unix socket.
  public convenience init(to cluster: PostgresCluster) throws {
    try self.init(to: .unixSocket(cluster.socketPath))
  }

  /// A relay to `target`, listening on a free port.
  public init(to target: Target) throws {
    self.target = target
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
      }
    }
    guard bound, Glibc.listen(listener, 128) == 0 else {
      close(listener)
      throw ClusterError("The relay cannot listen on 127.0.0.1.")
    }
    self.listener = listener
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in acceptConnections() }
    thread.name = "Relay.accept"
    thread.start()
  }

  /// The time each chunk of bytes waits before it is passed on, each way.
  public var delay: Duration {
    get { state.withLock(\.delay) }
    set { state.withLock { $0.delay = newValue } }
  }

  /// Whether bytes are held rather than passed on: connections, old and new, stay open, and
  /// nothing gets through, as in a network partition. Held bytes go on once it ends.
  public var isStalled: Bool {
    get { state.withLock(\.isStalled) }
    set {
      let links = state.withLock { state in
        state.isStalled = newValue
        return Array(state.links.values)
      }
      if !newValue { links.forEach { $0.wake() } }
    }
  }

  /// How many times a client spoke after the server had: the round trips made, counted over
  /// every connection.
  public var roundTrips: Int {
    state.withLock(\.turns)
  }

  /// Starts keeping what clients send, over every connection, for ``sent``; forgets what was
  /// kept before.
  public func startRecording() {
    state.withLock { $0.sent = [] }
  }

  /// What clients sent since ``startRecording()``, as text: the SQL of their statements
  /// among the bytes of the protocol's messages, each byte below a space read as a space.
  public var sent: String {
    String(decoding: sentBytes.map { max($0, 0x20) }, as: UTF8.self)
  }

  /// What clients sent since ``startRecording()``, byte for byte.
  public var sentBytes: [UInt8] {
    state.withLock { $0.sent ?? [] }
  }

  /// Closes every connection through the relay, as a server restarting or a network cut
  /// would; new connections are made as usual.
  public func cutConnections() {
    let links = state.withLock { state in
      defer { state.links = [:] }
      return Array(state.links.values)
    }
    links.forEach { $0.cut() }
  }

  /// Cuts the connection on which the server next sends `answer` (a command tag such as
  /// `COMMIT`, found among the bytes of its messages) before passing those bytes on: the
  /// server did what it answers and the client never learns it, as when the network fails at
  /// that moment. Once only; other connections go on.
  public func cutConnection(beforeAnswer answer: String) {
    state.withLock { $0.cutBefore = Array(answer.utf8) }
  }

  /// Stops listening and cuts every connection.
  public func stop() {
    state.withLock { $0.isStopped = true }
    shutdown(listener, Int32(SHUT_RDWR))
    cutConnections()
  }

  private func acceptConnections() {
    defer { close(listener) }
    while !state.withLock(\.isStopped) {
      let client = accept(listener, nil, nil)
      guard client >= 0 else {
        if errno == EINTR { continue }
        return
      }
      guard let server = connectToTarget() else {
        close(client)
        continue
      }
      let link = state.withLock { state -> Link? in
        guard !state.isStopped else { return nil }
        defer { state.nextLink += 1 }
        let link = Link(id: state.nextLink, client: client, server: server, relay: self)
        state.links[link.id] = link
        return link
      }
      guard let link else {
        close(client)
        close(server)
        return
      }
      link.start()
    }
  }

  private func connectToTarget() -> Int32? {
    switch target {
    case .unixSocket(let path):
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: $0) }
      }
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
        }
      }
      if connected { return fd }
      close(fd)
      return nil
    case .loopback(let port):
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = Self.loopback(port: port)
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      if connected { return fd }
      close(fd)
      return nil
    }
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
  }

  // MARK: Links

  fileprivate func forget(_ link: Link) {
    state.withLock { _ = $0.links.removeValue(forKey: link.id) }
  }

  fileprivate func settings() -> (delay: Duration, isStalled: Bool) {
    state.withLock { ($0.delay, $0.isStalled) }
  }

  fileprivate func countTurn() {
    state.withLock { $0.turns += 1 }
  }

  /// Whether the server's `bytes` hold the answer to cut before, which is then forgotten.
  fileprivate func cuts(before bytes: ArraySlice<UInt8>) -> Bool {
    state.withLock { state in
      guard let answer = state.cutBefore, bytes.firstRange(of: answer) != nil else { return false }
      state.cutBefore = nil
      return true
    }
  }

  fileprivate func record(_ bytes: ArraySlice<UInt8>) {
    state.withLock { $0.sent?.append(contentsOf: bytes) }
  }
}

/// One client's connection through the relay.
private final class Link: Sendable {
  let id: Int
  let client: Int32
  let server: Int32
  let relay: Relay
  private let upstream = Pipe()
  private let downstream = Pipe()
  /// Which way bytes last went: whether the client spoke last.
  private let clientSpokeLast = Locked(false)
  private let isCut = Locked(false)
  /// The threads still running: the last one closes the sockets.
  private let running = Locked(4)

  init(id: Int, client: Int32, server: Int32, relay: Relay) {
    self.id = id
    self.client = client
    self.server = server
    self.relay = relay
  }

  func start() {
    let bodies: [(String, @Sendable () -> Void)] = [
      ("read client", { [self] in read(from: client, into: upstream, fromClient: true) }),
      ("read server", { [self] in read(from: server, into: downstream, fromClient: false) }),
      ("write server", { [self] in write(from: upstream, to: server) }),
      ("write client", { [self] in write(from: downstream, to: client) }),
    ]
    for (name, body) in bodies {
      let thread = Thread { [self] in
        body()
        guard
          running.withLock({ running in
            running -= 1; return running == 0
          })
        else { return }
        close(client)
        close(server)
      }
      thread.name = "Relay.\(name)"
      thread.start()
    }
  }

  func wake() {
    upstream.wake()
    downstream.wake()
  }

  func cut() {
    guard
      !isCut.withLock({ cut in
        defer { cut = true }; return cut
      })
    else { return }
    shutdown(client, Int32(SHUT_RDWR))
    shutdown(server, Int32(SHUT_RDWR))
    upstream.close()
    downstream.close()
    relay.forget(self)
  }

  private func read(from fd: Int32, into pipe: Pipe, fromClient: Bool) {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = Glibc.read(fd, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      let turned = clientSpokeLast.withLock { spoke in
        defer { spoke = fromClient }
        return fromClient && !spoke
      }
      if turned { relay.countTurn() }
      if fromClient { relay.record(buffer[..<count]) }
      if !fromClient, relay.cuts(before: buffer[..<count]) { break }
      pipe.put(Array(buffer[..<count]), due: .now + relay.settings().delay)
    }
    cut()
  }

  private func write(from pipe: Pipe, to fd: Int32) {
    while let chunk = pipe.take(relay) {
      var sent = 0
      while sent < chunk.count {
        let count = chunk[sent...].withUnsafeBytes {
          send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return cut() }
        sent += count
      }
    }
  }

  /// The bytes one way, each chunk with the time it may be passed on.
  private final class Pipe: Sendable {
    private let chunks = Locked<(queue: [([UInt8], ContinuousClock.Instant)], isClosed: Bool)>(
      ([], false)
    )
    private let signal = DispatchSemaphore(value: 0)

    func put(_ bytes: [UInt8], due: ContinuousClock.Instant) {
      chunks.withLock { $0.queue.append((bytes, due)) }
      signal.signal()
    }

    func wake() { signal.signal() }

    func close() {
      chunks.withLock { $0.isClosed = true }
      signal.signal()
    }

    /// The next chunk once it is due and the relay is not stalled; `nil` once closed.
    func take(_ relay: Relay) -> [UInt8]? {
      while true {
        let (head, isClosed) = chunks.withLock { ($0.queue.first, $0.isClosed) }
        if isClosed { return nil }
        guard let (bytes, due) = head, !relay.settings().isStalled else {
          _ = signal.wait(timeout: .now() + .milliseconds(50))
          continue
        }
        let left = due - .now
        if left > .zero {
          _ = signal.wait(timeout: .now() + .nanoseconds(Int(left / .nanoseconds(1))))
          continue
        }
        chunks.withLock { _ = $0.queue.removeFirst() }
        return bytes
      }
    }
  }
}
