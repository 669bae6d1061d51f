public import Foundation
import SharingCore
import SharingDependencies

/// Where ``FileStorageKey`` reads and writes files: the real file system, or a virtual one
/// held in memory.
///
/// The default storage is ``SharingDependencies/DependencyValues/defaultFileStorage``:
/// ``fileSystem`` when the program runs, and a fresh ``inMemory`` file system for each test and
/// preview, so tests run in parallel without touching the disk. Opt a test into the real disk with
/// `withDependencies`:
///
/// ```swift
/// @Test func savesToDisk() throws {
///   try withDependencies {
///     $0.defaultFileStorage = .fileSystem
///   } operation: {
///     @Shared(.fileStorage(url)) var isOn = false
///     // …
///   }
/// }
/// ```
///
/// Two storages never share a file's state, even for the same URL: a key's identity
/// includes its storage. A virtual file system's pending writes are its own, too: only its
/// ``flushPendingWritesAndWait()`` writes them, never the program-wide
/// ``flushPendingWrites()``, which a test running in parallel may call.
public struct FileStorage: Hashable, Sendable {
  /// The file system the storage reads and writes.
  let backend: any FileSystemBackend
  /// The clock and timer of throttled writes, and of the virtual file system's playback.
  let scheduler: any WriteScheduler
  /// The least time between two throttled writes of a file, unless its key asks for another.
  let throttle: Duration
  /// Where the storage's files wait while a write is pending.
  let pendingWrites: PendingWrites
  /// What the storage counts of its writes and encodings, if it counts them: a constant, as
  /// a copy of the storage is the same storage, whose counts are the same.
  let writeCounts: WriteCounts?
  /// The records of the storage's files, whose identity is the storage's.
  let files = Registry<URL, FileRecord>()

  /// The real file system.
  ///
  /// Writes are throttled to at most one per second per file, the latest value always
  /// written, and pending writes are flushed when the process exits normally. Each write
  /// replaces the file atomically, keeping its permission bits; through a symbolic link, it
  /// replaces the file the link leads to, and the link stays. Changes made to the file by
  /// anything else are played back to every shared value using it. A lock another program
  /// holds on a coordinated file is waited for at most ``defaultLockTimeout``.
  public static let fileSystem = FileStorage.fileSystem(throttle: .seconds(1))

  /// A new, empty virtual file system held in memory.
  ///
  /// Every access returns a new file system that shares nothing with any other. Changes
  /// are written through at once, and ``simulateExternalWrite(_:to:)`` plays the part of
  /// another program changing a file.
  public static var inMemory: FileStorage {
    inMemory(scheduler: ImmediateWriteScheduler(), throttle: .zero)
  }

  /// How long a coordinated key waits for a file's lock while another program holds it,
  /// unless its storage says otherwise: 5 seconds.
  ///
  /// A change holds the lock for one read and one `fsync`ed write, a few milliseconds; even
  /// behind a dozen processes changing the file in turn, a change waits well under a second.
  /// A wait of several seconds means the holder is stuck (stopped in a debugger, suspended,
  /// or a script holding the lock with `flock`): the change, or the load, then fails with
  /// ``/SharingCore/Shared/saveError`` or ``/SharingCore/Shared/loadError`` instead of
  /// freezing the thread that made it. Choose another bound with
  /// ``fileSystem(throttle:lockTimeout:)``.
  public static let defaultLockTimeout: Duration = .seconds(5)

  /// The real file system, with another interval between throttled writes, or another bound
  /// on the wait for a coordinated file's lock.
  ///
  /// ```swift
  /// prepareDependencies {
  ///   $0.defaultFileStorage = .fileSystem(throttle: .milliseconds(250))
  /// }
  /// ```
  ///
  /// Each call makes a new storage: create one and keep it. A key can still ask for its own
  /// interval, with ``SharingCore/SharedReaderKey/fileStorage(_:throttle:decoder:encoder:)``.
  ///
  /// - Parameters:
  ///   - throttle: The least time between two throttled writes of a file; zero writes every
  ///     change through, before the change returns.
  ///   - lockTimeout: The longest a coordinated key
  ///     (``SharingCore/SharedReaderKey/fileStorage(_:_:decoder:encoder:)``) waits for its
  ///     file's lock while another program holds it. Past it, the change is not made and
  ///     ``/SharingCore/Shared/saveError`` says so (a load: ``/SharingCore/Shared/loadError``).
  /// - Returns: A file storage on the real file system.
  public static func fileSystem(
    throttle: Duration = .seconds(1),
    lockTimeout: Duration = defaultLockTimeout
  ) -> FileStorage {
    fileSystem(
      scheduler: DispatchWriteScheduler.shared,
      throttle: throttle,
      lockTimeout: lockTimeout
    )
  }

  /// The real file system, with deferred work run by `scheduler`.
  ///
  /// ```swift
  /// let scheduler = ManualWriteScheduler()
  /// try await withDependencies {
  ///   $0.defaultFileStorage = .fileSystem(scheduler: scheduler)
  /// } operation: {
  ///   // …
  ///   scheduler.advance(by: .seconds(1))
  /// }
  /// ```
  ///
  /// Throttled writes wait for the scheduler's time. Changes made to a file by anything
  /// else are played back as soon as they are noticed.
  ///
  /// - Parameters:
  ///   - scheduler: The clock and timer of throttled writes.
  ///   - throttle: The least time between two throttled writes of a file.
  ///   - lockTimeout: The longest a coordinated key waits for its file's lock while another
  ///     program holds it; see ``fileSystem(throttle:lockTimeout:)``.
  /// - Returns: A file storage on the real file system.
  public static func fileSystem(
    scheduler: some WriteScheduler,
    throttle: Duration = .seconds(1),
    lockTimeout: Duration = defaultLockTimeout
  ) -> FileStorage {
    fileSystem(
      scheduler: scheduler,
      throttle: throttle,
      lockTimeout: lockTimeout,
      pendingWrites: .shared
    )
  }

  /// A new virtual file system held in memory, with deferred work run by `scheduler`.
  ///
  /// Unlike ``inMemory``, changes are throttled as on the real file system, and the
  /// playback of ``simulateExternalWrite(_:to:)`` waits for the scheduler too, so a test
  /// decides when each happens:
  ///
  /// ```swift
  /// let scheduler = ManualWriteScheduler()
  /// let storage = FileStorage.inMemory(scheduler: scheduler)
  /// // …
  /// storage.simulateExternalWrite(Data("7".utf8), to: url)
  /// #expect(count == 0)
  /// scheduler.advance()
  /// #expect(count == 7)
  /// ```
  ///
  /// Pending writes wait for the scheduler, or for this storage's
  /// ``flushPendingWritesAndWait()``: the program-wide ``flushPendingWrites()`` leaves them
  /// alone, so that a test running in parallel cannot write them behind the scheduler's back.
  ///
  /// - Parameters:
  ///   - scheduler: The clock and timer of throttled writes and of playback.
  ///   - throttle: The least time between two throttled writes of a file.
  /// - Returns: A new, empty virtual file system.
  public static func inMemory(
    scheduler: some WriteScheduler,
    throttle: Duration = .seconds(1)
  ) -> FileStorage {
    FileStorage(
      backend: InMemoryFileSystem(),
      scheduler: scheduler,
      throttle: throttle,
      pendingWrites: PendingWrites(),
      writeCounts: nil
    )
  }

  /// A storage whose pending writes are flushed by `pendingWrites` alone, not by
  /// ``flushPendingWrites()`` nor at exit: for tests that flush without touching other
  /// tests' storages.
  package static func fileSystem(
    scheduler: some WriteScheduler,
    throttle: Duration = .seconds(1),
    lockTimeout: Duration = defaultLockTimeout,
    pendingWrites: PendingWrites
  ) -> FileStorage {
    FileStorage(
      backend: DiskFileSystem(lockTimeout: lockTimeout),
      scheduler: scheduler,
      throttle: throttle,
      pendingWrites: pendingWrites,
      writeCounts: nil
    )
  }

  /// Writes or deletes a file as another program would, so that every shared value using it
  /// plays the change back.
  ///
  /// ```swift
  /// @Shared(.fileStorage(url)) var isOn = false
  /// storage.simulateExternalWrite(Data("true".utf8), to: url)
  /// #expect(isOn)
  /// ```
  ///
  /// On the virtual file system the change is played back through the storage's scheduler:
  /// before this method returns for ``inMemory``, when a test advances time for
  /// ``inMemory(scheduler:throttle:)``. On the real file system it is played back when the
  /// change is noticed, shortly after.
  ///
  /// If the file cannot be changed (on the real file system, a directory that cannot be
  /// written, say), an issue is reported: the test asked for a change that did not happen.
  ///
  /// - Parameters:
  ///   - data: The new contents of the file, or `nil` to delete it.
  ///   - url: The file to change.
  public func simulateExternalWrite(_ data: Data?, to url: URL) {
    do {
      try backend.externalWrite(data, to: url.standardizedFileURL)
    } catch {
      reportIssue(error, "Could not change \(url.path) in file storage.")
    }
  }

  /// The current contents of a file, or `nil` if there is none (or it cannot be read).
  ///
  /// - Parameter url: The file to read.
  /// - Returns: The bytes in the file.
  public func contents(of url: URL) -> Data? {
    try? backend.contents(of: url.standardizedFileURL)
  }

  /// Writes every pending value of this storage now, and waits for the writes in progress.
  ///
  /// Values waiting for their throttle interval are written on the calling thread, which
  /// then waits for writes another thread has started. To write every storage's pending
  /// values, and user defaults too, use ``flushPendingWrites()``.
  public func flushPendingWritesAndWait() {
    PendingWrites.flushAndWait(files.all)
  }

  /// The same storage, with another identity, that counts its writes and encodings for
  /// ``writeCount(to:)`` and ``encodeCount(to:)``: for tests and benchmarks.
  package func countingWrites() -> FileStorage {
    FileStorage(
      backend: backend,
      scheduler: scheduler,
      throttle: throttle,
      pendingWrites: pendingWrites,
      writeCounts: WriteCounts()
    )
  }

  /// The number of times this storage wrote the file at `url`, if it counts them.
  package func writeCount(to url: URL) -> Int {
    writeCounts?.writes(to: url.standardizedFileURL) ?? 0
  }

  /// The number of values this storage encoded to write the file at `url`, if it counts
  /// them.
  package func encodeCount(to url: URL) -> Int {
    writeCounts?.encodes(for: url.standardizedFileURL) ?? 0
  }

  /// The number of files this storage keeps a record of: those that a key holds, that a
  /// write is pending for, or that are watched.
  package var fileRecordCount: Int {
    files.count
  }

  /// The number of file records alive in the process, for every storage.
  package static var liveFileRecordCount: Int {
    FileUses.liveCount.withLock { $0 }
  }

  /// A hold on the record of the file at `url`, shared by every key using this storage, for
  /// a key asking for `throttle` between writes (`nil` for the storage's), or for
  /// coordinated changes.
  func holder(
    for url: URL,
    throttle: Duration?,
    isCoordinated: Bool = false
  ) -> RecordHolder<FileIO> {
    // NB: Held under the registry's lock, so that the record cannot be released between
    //     being found and being held.
    let (file, report) = files.use(url, creating: { makeFile(at: url) }) { file in
      file.holderAdded()
      return file.io.uses.added(
        interval: throttle ?? self.throttle,
        isCoordinated: isCoordinated,
        of: url
      )
    }
    if let report { reportIssue(report) }
    return RecordHolder(record: file) { file.io.uses.removed() }
  }

  private func makeFile(at url: URL) -> FileRecord {
    FileRecord(
      io: FileIO(url: url, backend: backend, writeCounts: writeCounts, uses: FileUses()),
      machine: RecordStateMachine(interval: throttle),
      scheduler: scheduler,
      pendingWrites: pendingWrites,
      // The disk's changes are played back as soon as they are noticed: only the virtual
      // file system's simulated ones wait for the scheduler, which a test controls.
      schedulesPlayback: backend is InMemoryFileSystem
    ) { [weak files] file in
      files?.remove(url, ifIdenticalTo: file) { $0.confirmRelease() }
    }
  }

  /// Whether two values are the same storage.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.files === rhs.files
  }

  /// Hashes the identity of the storage.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(files))
  }
}
