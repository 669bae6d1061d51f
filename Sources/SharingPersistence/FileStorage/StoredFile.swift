import Foundation
import SharingCore
import SharingDependencies

/// The record of one file of a ``FileStorage``: runs what ``StoredFileState`` decides, doing
/// the reads, writes, watching and playback.
///
/// Two locks, always taken in this order: `fileAccess` serialises touching the file (writes,
/// and the reads that tell external changes from ours, so that a read never falls between a
/// write and its bookkeeping); `state` guards the rules. Neither is held while encoding
/// values or calling continuations and subscribers.
final class StoredFile: Sendable {
  let url: URL
  private let backend: any FileSystemBackend
  private let scheduler: any WriteScheduler
  /// The least time between two throttled writes, unless a change asks for its own.
  private let throttle: Duration
  /// Whether changes the backend notices are played back through the scheduler, rather than
  /// on the thread that noticed them.
  private let schedulesPlayback: Bool
  private let pendingFiles: PendingFiles
  private let writeCounts: WriteCounts?
  /// Removes the record from its storage, if it is still unused.
  private let release: @Sendable (StoredFile) -> Void
  /// Whether the abandoned temporary files of earlier writes were removed.
  private let fileAccess = Locked(false)
  private let state: Locked<StoredFileState>

  /// The number of file records alive in the process.
  static let liveCount = Locked(0)

  init(
    url: URL,
    backend: any FileSystemBackend,
    scheduler: any WriteScheduler,
    throttle: Duration,
    schedulesPlayback: Bool,
    pendingFiles: PendingFiles,
    writeCounts: WriteCounts?,
    release: @escaping @Sendable (StoredFile) -> Void
  ) {
    self.url = url
    self.backend = backend
    self.scheduler = scheduler
    self.throttle = throttle
    self.schedulesPlayback = schedulesPlayback
    self.pendingFiles = pendingFiles
    self.writeCounts = writeCounts
    self.release = release
    self.state = Locked(StoredFileState(url: url, interval: throttle))
    Self.liveCount.withLock { $0 += 1 }
  }

  deinit {
    Self.liveCount.withLock { $0 -= 1 }
  }

  // MARK: Holders

  /// Counts a key holding the record, with its interval between throttled writes (`nil`
  /// for the storage's) or its coordination; returns what to run once the storage's lock is
  /// released.
  func holderAdded(interval: Duration?, isCoordinated: Bool) -> [StoredFileState.Effect] {
    state.withLock { $0.holderAdded(interval: interval ?? throttle, isCoordinated: isCoordinated) }
  }

  func holderRemoved() {
    run(state.withLock { $0.holderRemoved() })
  }

  /// Whether the record may leave its storage, which then gives it no more holders.
  func confirmRelease() -> Bool {
    state.withLock { $0.confirmRelease() }
  }

  // MARK: Reading

  /// Reads the file, once this program's writes to it, pending or in flight, have landed.
  func load() throws -> Data? {
    // NB: The program's own writes are newer than the file: a value read without them
    //     would take the shared value back.
    if !state.withLock(\.isIdle) {
      let landed = DispatchSemaphore(value: 0)
      flush { landed.signal() }
      landed.wait()
    }
    let thread = currentThreadID()
    let (read, effects) = fileAccess.withLock { _ in
      let read = Result { try backend.contents(of: url) }
      return (read, state.withLock { $0.fileRead(read, verifying: nil, thread: thread) })
    }
    run(effects)
    return try read.get()
  }

  /// Marks the bytes read from the file as undecodable, to keep them before it is
  /// overwritten.
  func markUndecodable(_ data: Data) {
    state.withLock { $0.undecodable(data) }
  }

  /// Marks the bytes read from the file as decodable: nothing needs keeping.
  func markDecodable() {
    state.withLock { $0.decodable() }
  }

  // MARK: Watching

  /// Calls `onChange` with the file's new contents whenever something else changes it, until
  /// the returned closure is called.
  func subscribe(_ onChange: @escaping FileSubscriber) -> @Sendable () -> Void {
    let (id, effects) = state.withLock { $0.subscribed(onChange) }
    run(effects)
    return { [self] in run(state.withLock { $0.unsubscribed(id) }) }
  }

  private func startWatching(generation: Int) {
    // NB: Started without the lock: the backend may report that it cannot watch.
    let watch = backend.watch(url) { [weak self] in
      guard let self else { return }
      guard schedulesPlayback else { return checkFile(verifying: nil) }
      scheduler.schedule(after: .zero) { [weak self] in self?.checkFile(verifying: nil) }
    }
    run(state.withLock { $0.watchStarted(generation: generation, watch) })
  }

  private func checkFile(verifying generation: Int?) {
    let thread = currentThreadID()
    // NB: Read under the file's lock: a read racing our own write could otherwise see the
    //     old bytes after the write was recorded, and play an outdated value back.
    let effects = fileAccess.withLock { _ in
      let read = Result { try backend.contents(of: url) }
      return state.withLock { $0.fileRead(read, verifying: generation, thread: thread) }
    }
    run(effects)
  }

  /// Delivers a playback, then those this thread produced meanwhile, if they are the newest.
  private func deliver(_ playback: Playback) {
    let thread = currentThreadID()
    var next: Playback? = playback
    while let playback = next {
      for subscriber in playback.subscribers { subscriber(playback.result) }
      next = nil
      for effect in state.withLock({ $0.playbackFinished(thread: thread) }) {
        if case .playBack(.deliver(let own)) = effect { next = own } else { run([effect]) }
      }
    }
  }

  // MARK: Writing

  /// Saves a value: at once for ``SaveContext/userInitiated``, for changes with a zero
  /// interval and for the first change after a quiet period; throttled for other changes.
  ///
  /// - Parameters:
  ///   - encode: Makes the bytes to write; only called if the value is written.
  ///   - interval: The least time between two throttled writes, if not the storage's.
  func save(
    _ encode: @escaping @Sendable () throws -> Data,
    context: SaveContext,
    interval: Duration? = nil,
    continuation: SaveContinuation
  ) {
    let write = PendingWrite(encode: encode, continuations: [continuation])
    let now = scheduler.now()
    let immediate = context == .userInitiated || (interval ?? throttle) == .zero
    run(
      state.withLock {
        $0.saveRequested(write, immediate: immediate, interval: interval, now: now)
      }
    )
  }

  /// Writes the pending value now, if any, on the calling thread, then calls `done` once
  /// every write taken before has finished.
  func flush(_ done: @escaping @Sendable () -> Void) {
    let now = scheduler.now()
    run(state.withLock { $0.flushRequested(now: now, done: done) })
  }

  private func write(_ ticket: WriteThrottle.Ticket) {
    // NB: Encoded here, outside every lock, and only for a value that is written: values
    //     superseded while the throttle waited were never encoded.
    let encoded = Result { try ticket.write.encode() }
    let thread = currentThreadID()
    let (wrote, effects) = fileAccess.withLock { hasRemovedTemporaryFiles in
      var (result, wrote, effects) = (Result<Void, any Error>.success(()), false, [Effect]())
      switch encoded {
      case .failure(let error):
        result = .failure(error)
      case .success(let data):
        (result, wrote, effects) = replaceContents(with: data, for: ticket, thread: thread)
        if wrote, !hasRemovedTemporaryFiles {
          hasRemovedTemporaryFiles = true
          backend.removeAbandonedTemporaryFiles(of: url)
        }
      }
      let finished = state.withLock {
        $0.writeFinished(
          ticket,
          bytes: try? encoded.get(),
          wrote: wrote,
          result: result,
          thread: thread
        )
      }
      return (wrote, finished + effects)
    }
    writeCounts?.record(url, wrote: wrote)
    run(effects)
  }

  /// Writes the file as the rules decide, keeping bytes aside first if asked. Called with the
  /// file's lock held.
  private func replaceContents(
    with data: Data,
    for ticket: WriteThrottle.Ticket,
    thread: UInt
  ) -> (Result<Void, any Error>, wrote: Bool, [Effect]) {
    var effects: [Effect] = []
    let decision =
      state.withLock { $0.writeDecision(for: data, sequence: ticket.sequence) }
      ?? {
        let read = Result { try backend.contents(of: url) }
        let (decision, checked) = state.withLock {
          $0.fileCheckedBeforeWriting(read, sequence: ticket.sequence, data: data, thread: thread)
        }
        effects = checked
        return decision
      }()
    switch decision {
    case .skip:
      return (.success(()), false, effects)
    case .fail(let error):
      return (.failure(error), false, effects)
    case .write(let keepingAside):
      do {
        if let keepingAside { try CorruptFile.preserve(keepingAside, of: url, in: backend) }
        try backend.write(data, to: url)
        return (.success(()), true, effects)
      } catch {
        return (.failure(error), false, effects)
      }
    }
  }

  // MARK: Coordinated changes

  /// Reads the file as ``load()`` does, holding its lock shared with other readers, so that
  /// no coordinated change is under way meanwhile.
  ///
  /// A load from inside a change of the file, on the thread holding its lock, is reported,
  /// and reads the file as the change found it.
  func loadLocked() throws -> Data? {
    let lock = try backend.lock(url, exclusive: false)
    defer { lock.unlock() }
    if lock.isReentry {
      reportIssue(
        """
        'load' of \(url.path) was called from inside a change of it, on the thread holding its \
        lock: it reads the file as the change found it. Use the value the change's body is \
        given instead.
        """
      )
    }
    return try load()
  }

  /// Changes the file with its lock held against every process using it: `change` gets the
  /// bytes the file holds now and returns those to write, or `nil` to leave the file as it
  /// is. The bytes are written atomically before the lock is released.
  ///
  /// A change from inside another change of the file, on the thread holding its lock, is
  /// reported, and refused: the outer change's write would replace it.
  ///
  /// - Throws: A ``FileLockError`` if the lock cannot be taken, a ``NestedFileChangeError``
  ///   if this thread holds it, an ``UnreadableFileError`` if the file cannot be read, or the
  ///   error of `change` or of the write.
  func change(_ change: (Data?) throws -> Data?) throws {
    let thread = currentThreadID()
    let effects: [Effect]
    do {
      let lock = try backend.lock(url, exclusive: true)
      defer { lock.unlock() }
      guard !lock.isReentry else {
        reportIssue(
          """
          A change of \(url.path) was made from inside a change of the same file, on the \
          thread holding its lock: it is not written, as the outer change's write would \
          replace it. Make it in the outer change's body instead.
          """
        )
        throw NestedFileChangeError(url: url)
      }
      // NB: Read and written under the file's lock, as every read and write here is, so
      //     that a check of the file for changes sees it before or after, never between.
      let read = fileAccess.withLock { _ in
        let read = Result { try backend.contents(of: url) }
        state.withLock { $0.readForChange(read) }
        return read
      }
      let current: Data?
      do {
        current = try read.get()
      } catch {
        throw UnreadableFileError(url: url, cause: error)
      }
      guard let data = try change(current), data != current else { return }
      effects = try fileAccess.withLock { hasRemovedTemporaryFiles in
        try backend.write(data, to: url)
        if !hasRemovedTemporaryFiles {
          hasRemovedTemporaryFiles = true
          backend.removeAbandonedTemporaryFiles(of: url)
        }
        return state.withLock { $0.changeWritten(data, thread: thread) }
      }
      writeCounts?.record(url, wrote: true)
    }
    // NB: Played back once every process may go on.
    run(effects)
  }

  // MARK: Effects

  typealias Effect = StoredFileState.Effect

  /// Runs effects in order, with no lock held.
  func run(_ effects: [Effect]) {
    for effect in effects {
      switch effect {
      case .write(let ticket):
        write(ticket)
      case .scheduleWrite(let delay):
        scheduler.schedule(after: delay) { [self] in
          let now = scheduler.now()
          run(state.withLock { $0.scheduledTimeCame(now: now) })
        }
      case .resume(let continuations, let result):
        for continuation in continuations { continuation.resume(with: result) }
      case .finishFlushes(let flushes):
        for done in flushes { done() }
      case .registerPending:
        pendingFiles.insert(self)
      case .unregisterPending:
        pendingFiles.remove(self)
      case .startWatching(let generation):
        startWatching(generation: generation)
      case .stopWatching(let watch):
        watch.stop()
      case .checkFile(let generation):
        checkFile(verifying: generation)
      case .playBack(.deliver(let playback)):
        deliver(playback)
      case .playBack(.wait(let turn)):
        if let playback = turn.wait() { deliver(playback) }
      case .playBack(.hand(let turn, let playback)):
        turn.hand(playback)
      case .release:
        release(self)
      case .report(let message):
        reportIssue(message)
      }
    }
  }
}
