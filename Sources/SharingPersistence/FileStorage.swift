public import Foundation
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
/// includes its storage.
public struct FileStorage: Hashable, Sendable {
  private let box: Box

  init(backend: any FileSystemBackend, scheduler: any WriteScheduler, throttle: Duration) {
    self.box = Box(backend: backend, scheduler: scheduler, throttle: throttle)
  }

  /// The real file system.
  ///
  /// Writes are throttled to at most one per second per file, the latest value always
  /// written, and pending writes are flushed when the process exits normally. Each write
  /// replaces the file atomically. Changes made to the file by anything else are played
  /// back to every shared value using it.
  public static let fileSystem = FileStorage(
    backend: DiskFileSystem(),
    scheduler: DispatchWriteScheduler.shared,
    throttle: .seconds(1)
  )

  /// A new, empty virtual file system held in memory.
  ///
  /// Every access returns a new file system that shares nothing with any other. Changes
  /// are written through at once, and ``simulateExternalWrite(_:to:)`` plays the part of
  /// another program changing a file.
  public static var inMemory: FileStorage {
    FileStorage(
      backend: InMemoryFileSystem(),
      scheduler: ImmediateWriteScheduler(),
      throttle: .zero
    )
  }

  /// The real file system with a custom scheduler and throttle interval.
  package static func fileSystem(
    scheduler: some WriteScheduler,
    throttle: Duration = .seconds(1)
  ) -> FileStorage {
    FileStorage(backend: DiskFileSystem(), scheduler: scheduler, throttle: throttle)
  }

  /// A new virtual file system with a custom scheduler and throttle interval.
  package static func inMemory(
    scheduler: some WriteScheduler,
    throttle: Duration = .seconds(1)
  ) -> FileStorage {
    FileStorage(backend: InMemoryFileSystem(), scheduler: scheduler, throttle: throttle)
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
  /// On the virtual file system the change is played back before this method returns; on the
  /// real file system it is played back when the change is noticed, shortly after.
  ///
  /// - Parameters:
  ///   - data: The new contents of the file, or `nil` to delete it.
  ///   - url: The file to change.
  public func simulateExternalWrite(_ data: Data?, to url: URL) {
    do {
      try box.backend.externalWrite(data, to: url.standardizedFileURL)
    } catch {
      reportIssue(error, "Could not change \(url.path) in file storage.")
    }
  }

  /// The current contents of a file, or `nil` if there is none (or it cannot be read).
  ///
  /// - Parameter url: The file to read.
  /// - Returns: The bytes in the file.
  public func contents(of url: URL) -> Data? {
    try? box.backend.contents(of: url.standardizedFileURL)
  }

  /// The number of times this storage wrote the file at `url`.
  package func writeCount(to url: URL) -> Int {
    box.file(at: url.standardizedFileURL).writeCount
  }

  /// Writes every pending value of this storage now, on the calling thread.
  package func flushPendingWrites() {
    for file in box.files.withLock({ Array($0.values) }) { file.flush() }
  }

  /// The state of the file at `url`, shared by every key using this storage.
  func file(at url: URL) -> StoredFile {
    box.file(at: url)
  }

  /// Whether two values are the same storage.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box
  }

  /// Hashes the identity of the storage.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(box))
  }

  private final class Box: Sendable {
    let backend: any FileSystemBackend
    let scheduler: any WriteScheduler
    let throttle: Duration
    let files = Locked<[URL: StoredFile]>([:])

    init(backend: any FileSystemBackend, scheduler: any WriteScheduler, throttle: Duration) {
      self.backend = backend
      self.scheduler = scheduler
      self.throttle = throttle
    }

    func file(at url: URL) -> StoredFile {
      files.withLock { files in
        if let file = files[url] { return file }
        let file = StoredFile(url: url, backend: backend, scheduler: scheduler, throttle: throttle)
        files[url] = file
        return file
      }
    }
  }
}
