import SharingDependencies
import Foundation
import SharingCore

/// Everything ``FileStorage`` knows about one file: the bytes it last saw there, the
/// throttled write waiting to happen, undecodable bytes to keep, and who watches it.
///
/// Two locks, always taken in this order: `writeLock` serialises touching the file (writes,
/// and reads made to detect external changes, so that a read never sees a write half done
/// relative to `known`); `state` guards the bookkeeping. Neither is held while encoding
/// values or calling continuations and subscribers.
final class StoredFile: Sendable {
  let url: URL
  private let backend: any FileSystemBackend
  private let scheduler: any WriteScheduler
  private let writeLock = Locked<UInt64>(0)
  private let state: Locked<State>

  private struct State {
    var throttle: WriteThrottle
    /// The bytes known to be in the file (`.some(nil)`: no file), to skip unchanged writes
    /// and to tell our own writes from external changes. `nil` when unknown.
    var known: Data??
    /// Bytes that failed to decode, kept in a sibling file before the file is overwritten.
    var undecodable: Data?
    var inFlight = 0
    var writeCount = 0
    var nextSubscriberID = 0
    var subscribers: [Int: @Sendable (Result<Data?, any Error>) -> Void] = [:]
    var stopWatching: (@Sendable () -> Void)?
  }

  init(url: URL, backend: any FileSystemBackend, scheduler: any WriteScheduler, throttle: Duration)
  {
    self.url = url
    self.backend = backend
    self.scheduler = scheduler
    self.state = Locked(State(throttle: WriteThrottle(interval: throttle)))
  }

  /// The number of times the file was written.
  var writeCount: Int { state.withLock(\.writeCount) }

  // MARK: Reading

  /// Reads the file.
  func load() throws -> Data? {
    let data = try backend.contents(of: url)
    state.withLock { state in
      if state.inFlight == 0 && state.throttle.pending == nil { state.known = .some(data) }
    }
    return data
  }

  /// Marks the bytes in the file as undecodable, so that they are kept before the file is
  /// overwritten.
  func markUndecodable(_ data: Data) {
    state.withLock { $0.undecodable = data }
  }

  /// Marks the file as decodable again: nothing needs keeping.
  func markDecodable() {
    state.withLock { $0.undecodable = nil }
  }

  // MARK: Watching

  /// Calls `onChange` with the file's new contents whenever something else changes it.
  func subscribe(
    _ onChange: @escaping @Sendable (Result<Data?, any Error>) -> Void
  ) -> @Sendable () -> Void {
    let (id, startsWatching) = state.withLock { state in
      defer { state.nextSubscriberID += 1 }
      state.subscribers[state.nextSubscriberID] = onChange
      guard state.stopWatching == nil else { return (state.nextSubscriberID, false) }
      state.stopWatching = backend.watch(url) { [weak self] in self?.fileMayHaveChanged() }
      return (state.nextSubscriberID, true)
    }
    // NB: The file may have changed between being loaded and being watched.
    if startsWatching { fileMayHaveChanged() }
    return { [self] in
      let stop = state.withLock { state -> (@Sendable () -> Void)? in
        state.subscribers[id] = nil
        guard state.subscribers.isEmpty else { return nil }
        defer { state.stopWatching = nil }
        return state.stopWatching
      }
      stop?()
    }
  }

  private func fileMayHaveChanged() {
    typealias Subscriber = @Sendable (Result<Data?, any Error>) -> Void
    // NB: Read under the write lock: a read racing our own write could otherwise see the old
    //     bytes after 'known' was updated, and play an outdated value back.
    let (result, subscribers, discarded) = writeLock.withLock { _ in
      let result = Result { try backend.contents(of: url) }
      return state.withLock {
        state -> (Result<Data?, any Error>, [Subscriber], [SaveContinuation]) in
        if case .success(let data) = result {
          guard state.known != .some(data) else { return (result, [], []) }
          state.known = .some(data)
        } else {
          state.known = nil
        }
        // NB: The file changed after the pending value was set: the newer, external value
        //     wins, rather than being overwritten by the older one.
        let discarded = state.throttle.discardPending()
        return (result, state.subscribers.sorted { $0.key < $1.key }.map(\.value), discarded)
      }
    }
    for continuation in discarded { continuation.resume() }
    for subscriber in subscribers { subscriber(result) }
  }

  // MARK: Writing

  /// Saves a value: at once for ``SaveContext/userInitiated``, throttled for
  /// ``SaveContext/didSet``.
  func save(
    _ encode: @escaping @Sendable () throws -> Data,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    let write = PendingWrite(encode: encode, continuations: [continuation])
    let now = scheduler.now()
    switch context {
    case .userInitiated:
      let ticket = state.withLock { state in
        state.inFlight += 1
        return state.throttle.takeImmediate(write, now: now)
      }
      perform(ticket)
    case .didSet:
      guard let delay = state.withLock({ $0.throttle.enqueue(write, now: now) }) else { return }
      PendingFiles.shared.insert(self)
      scheduler.schedule(after: delay) { [self] in
        let ticket = state.withLock { state in
          let ticket = state.throttle.takeScheduled(now: scheduler.now())
          if ticket != nil { state.inFlight += 1 }
          return ticket
        }
        if let ticket { perform(ticket) }
      }
    }
  }

  /// Writes the pending value now, if any, then waits for writes in progress to finish.
  func flush() {
    let ticket = state.withLock { state in
      let ticket = state.throttle.takePending(now: scheduler.now())
      if ticket != nil { state.inFlight += 1 }
      return ticket
    }
    if let ticket { perform(ticket) }
    // NB: Another thread may be writing a value it took earlier; the bound keeps a stuck
    //     file system from blocking exit forever.
    let deadline = ContinuousClock.now + .seconds(5)
    while state.withLock({ $0.inFlight > 0 }) && ContinuousClock.now < deadline {
      usleep(1_000)
    }
  }

  /// Whether a write is pending or in progress.
  var hasPendingWork: Bool {
    state.withLock { $0.inFlight > 0 || $0.throttle.pending != nil }
  }

  private func perform(_ ticket: WriteThrottle.Ticket) {
    let result = Result {
      let data = try ticket.write.encode()
      try writeLock.withLock { written in
        // NB: A newer value was written while this one was being encoded.
        guard ticket.sequence > written else { return }
        written = ticket.sequence
        try replaceContents(with: data)
      }
    }
    state.withLock { $0.inFlight -= 1 }
    if !hasPendingWork { PendingFiles.shared.remove(self) }
    for continuation in ticket.write.continuations { continuation.resume(with: result) }
  }

  /// Writes the file, keeping undecodable bytes first. Called with the write lock held.
  private func replaceContents(with data: Data) throws {
    let (known, undecodable) = state.withLock { ($0.known, $0.undecodable) }
    if let undecodable {
      try CorruptFile.preserve(undecodable, of: url, in: backend)
      state.withLock { $0.undecodable = nil }
    } else if known == .some(data) {
      return
    }
    state.withLock { $0.known = .some(data) }
    do {
      try backend.write(data, to: url)
      state.withLock { $0.writeCount += 1 }
    } catch {
      state.withLock { $0.known = known }
      throw error
    }
  }
}
