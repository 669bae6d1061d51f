import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

#if os(Linux) || os(Android)
  /// The watcher's failures to set up inotify, injected: the real limits are the machine's.
  ///
  /// A refused watch is a condition of the system, not a programmer error: it reports no
  /// issue (which would fail the user's tests), writes one line on standard error naming the
  /// limit to raise, and the file is checked for changes by polling instead.
  @Suite struct FileWatcherTests {
    @Test func refusedInstanceIsWrittenOnceWithTheLimitToRaise() {
      let warnings = Warnings()
      let watcher = FileWatcher(
        inotify: InotifyCalls(initialize: { -EMFILE }, addWatch: { _, _, _ in -EBADF }),
        warn: warnings.append
      )
      let watches = ["/tmp/settings.json", "/tmp/other.json"].map { watcher.watch(path: $0) {} }
      for watch in watches { watch.stop() }
      let messages = warnings.all
      #expect(messages.count == 1)
      #expect(messages.first?.contains("'inotify_init1' failed with EMFILE") == true)
      #expect(messages.first?.contains("sysctl fs.inotify.max_user_instances=") == true)
      #expect(messages.first?.contains("checked for changes every") == true)
      #expect(messages.first?.contains("\n") == false)
    }

    @Test func refusedWatchIsWrittenOnceWithTheLimitToRaise() {
      let warnings = Warnings()
      let watcher = FileWatcher(
        inotify: InotifyCalls(
          initialize: InotifyCalls.system.initialize,
          addWatch: { _, _, _ in -ENOSPC }
        ),
        warn: warnings.append
      )
      let watches = ["/tmp/watched/settings.json", "/tmp/elsewhere/other.json"].map {
        watcher.watch(path: $0) {}
      }
      for watch in watches { watch.stop() }
      let messages = warnings.all
      #expect(messages.count == 1)
      #expect(messages.first?.contains("Cannot watch /tmp/watched for changes") == true)
      #expect(messages.first?.contains("'inotify_add_watch' failed with ENOSPC") == true)
      #expect(messages.first?.contains("sysctl fs.inotify.max_user_watches=") == true)
    }

    @Test func otherFailuresAreWrittenWithoutALimit() {
      let warnings = Warnings()
      let watcher = FileWatcher(
        inotify: InotifyCalls(
          initialize: InotifyCalls.system.initialize,
          addWatch: { _, _, _ in -EACCES }
        ),
        warn: warnings.append
      )
      watcher.watch(path: "/tmp/private/settings.json") {}.stop()
      let messages = warnings.all
      #expect(messages.count == 1)
      #expect(messages.first?.contains("'inotify_add_watch' failed with EACCES") == true)
      #expect(messages.first?.contains("sysctl") == false)
    }

    @Test func aFileWhoseWatchIsRefusedIsPolledForChanges() async throws {
      try await withTemporaryDirectory { directory in
        let watcher = makeWatcher(pollingEvery: .milliseconds(10)) { true }
        let url = directory.file("count.json")
        try bytes("1").write(to: url)
        let changes = Locked(0)
        let watch = watcher.watch(path: url.path) { changes.withLock { $0 += 1 } }
        defer { watch.stop() }
        #expect(!watch.isLive)
        try bytes("22").write(to: url)
        await expectEventually("the polled change") { changes.withLock { $0 } > 0 }
        let seen = changes.withLock { $0 }
        try FileManager.default.removeItem(at: url)
        await expectEventually("the polled deletion") { changes.withLock { $0 } > seen }
      }
    }

    /// A stamp taken within the file system's clock tick of the file's modification is no
    /// proof that the file did not change: a write in that tick, of the same size, leaves the
    /// same stamp, and is seen all the same.
    @Test func aPolledChangeThatLeavesTheSameStampIsSeen() async throws {
      try await withTemporaryDirectory { directory in
        let watcher = makeWatcher(pollingEvery: .milliseconds(200)) { true }
        let url = directory.file("count.json")
        try bytes("1").write(to: url)
        // NB: Modified just ahead of the poll's first stamp, as within one tick of the clock
        //     (50 ms). A thread held up longer than that on a loaded machine starts the watch
        //     after the tick: it is stopped, and started again with a new time.
        var started: (watch: FileWatch, modified: Duration, changes: Locked<Int>)?
        while started == nil {
          let modified = FileStamp.now() + .milliseconds(45)
          try setModificationTime(of: url, to: modified)
          let changes = Locked(0)
          let watch = watcher.watch(path: url.path) { changes.withLock { $0 += 1 } }
          if FileStamp.now() < modified + .milliseconds(50) {
            started = (watch, modified, changes)
          } else {
            watch.stop()
          }
        }
        let (watch, modified, changes) = try #require(started)
        defer { watch.stop() }
        let before = FileStamp(path: url.path)
        // NB: Rewritten in place with as many bytes and the same time: the same stamp.
        let handle = try FileHandle(forWritingTo: url)
        handle.write(bytes("2"))
        try handle.close()
        try setModificationTime(of: url, to: modified)
        #expect(FileStamp(path: url.path) == before)
        await expectEventually("the change under the same stamp") { changes.withLock { $0 } > 0 }
      }
    }

    /// A watch that was active, but whose directory could not be watched again once it was
    /// re-created, no longer claims to see every change, and is polled instead.
    @Test func aWatchThatCannotBeRenewedIsNoLongerActiveAndIsPolled() async throws {
      try await withTemporaryDirectory { directory in
        let refuses = Locked(false)
        let watcher = makeWatcher(pollingEvery: .milliseconds(10)) { refuses.withLock { $0 } }
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("count.json")
        try bytes("1").write(to: url)
        let changes = Locked(0)
        let watch = watcher.watch(path: url.path) { changes.withLock { $0 += 1 } }
        defer { watch.stop() }
        #expect(watch.isLive)
        refuses.withLock { $0 = true }
        try FileManager.default.removeItem(at: folder)
        await expectEventually("the deletion") { !watch.isLive }
        let seen = changes.withLock { $0 }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try bytes("2").write(to: url)
        await expectEventually("the polled change") { changes.withLock { $0 } > seen }
      }
    }

    @Test func aWatchThroughALinkIsNoLongerLiveOnceItsTargetsDirectoryCannotBeWatched()
      async throws
    {
      try await withTemporaryDirectory { directory in
        let refuses = Locked(false)
        let watcher = makeWatcher(pollingEvery: .milliseconds(10)) { refuses.withLock { $0 } }
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("count.json")
        try bytes("1").write(to: target)
        let link = directory.file("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let watch = DiskFileSystem(watcher: watcher).watch(link) {}
        defer { watch.stop() }
        #expect(watch.isLive)
        refuses.withLock { $0 = true }
        try FileManager.default.removeItem(at: folder)
        await expectEventually("the deletion") { !watch.isLive }
      }
    }

    @Test func holdersOfAFileWhoseWatchIsRefusedFollowExternalChanges() async throws {
      try await withTemporaryDirectory { directory in
        let watcher = FileWatcher(
          inotify: InotifyCalls(initialize: { -EMFILE }, addWatch: { _, _, _ in -EBADF }),
          pollingInterval: .milliseconds(10),
          warn: { _ in }
        )
        let storage = FileStorage(
          backend: DiskFileSystem(watcher: watcher),
          scheduler: DispatchWriteScheduler.shared,
          throttle: .seconds(1),
          pendingWrites: PendingWrites(),
          writeCounts: nil
        )
        defer { storage.flushPendingWritesAndWait() }
        let url = directory.file("count.json")
        try bytes("1").write(to: url)
        try await withDependencies {
          $0.defaultFileStorage = storage
        } operation: {
          @Shared(.fileStorage(url)) var count = 0
          #expect(count == 1)
          try bytes("2").write(to: url)
          await expectEventually("the external write") { count == 2 }
          #expect($count.loadError == nil)
        }
      }
    }
    /// The first watch on a directory makes the kernel walk its entries (58 ms in a directory
    /// of 100,000 files on the machine of the benchmarks): a directory stays watched once its
    /// last file's watch stops, so that the next file watched in it costs no walk.
    @Test func aDirectoryStaysWatchedOnceItsLastFileIsNoLongerWatched() async throws {
      try await withTemporaryDirectory { directory in
        let (watcher, instance) = kernelWatcher()
        watcher.watch(path: directory.file("a.json").path) {}.stop()
        #expect(instance.watchCount == 1)

        let changes = Locked(0)
        let watch = watcher.watch(path: directory.file("b.json").path) {
          changes.withLock { $0 += 1 }
        }
        defer { watch.stop() }
        #expect(instance.watchCount == 1)
        #expect(watch.isLive)
        try bytes("1").write(to: directory.file("b.json"))
        await expectEventually("the change") { changes.withLock { $0 } > 0 }
      }
    }

    @Test func onlyTheLatestIdleDirectoriesStayWatched() async throws {
      try await withTemporaryDirectory { directory in
        let (watcher, instance) = kernelWatcher()
        let limit = FileWatcher.idleDirectoryLimit
        for index in 0...limit {
          let folder = directory.file("\(index)")
          try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
          watcher.watch(path: folder.appendingPathComponent("a.json").path) {}.stop()
        }
        #expect(instance.watchCount == limit)
        // NB: The oldest idle directory is the one no longer watched.
        #expect(!instance.watchedInodes.contains(try inode(of: directory.file("0"))))
      }
    }

    /// An idle directory renamed away is no longer watched: a file at its former path is
    /// watched in the directory found there.
    @Test func aFileInADirectoryReplacedWhileIdleIsWatchedInTheNewOne() async throws {
      try await withTemporaryDirectory { directory in
        let (watcher, instance) = kernelWatcher()
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        watcher.watch(path: folder.appendingPathComponent("a.json").path) {}.stop()
        try FileManager.default.moveItem(at: folder, to: directory.file("moved"))
        await expectEventually("the moved directory unwatched") { instance.watchCount == 0 }

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let changes = Locked(0)
        let watch = watcher.watch(path: folder.appendingPathComponent("a.json").path) {
          changes.withLock { $0 += 1 }
        }
        defer { watch.stop() }
        #expect(instance.watchedInodes == [try inode(of: folder)])
        try bytes("1").write(to: folder.appendingPathComponent("a.json"))
        await expectEventually("the change") { changes.withLock { $0 } > 0 }
      }
    }
  }

  /// A watcher making the kernel's inotify calls, and its instance, whose watches the kernel
  /// lists.
  private func kernelWatcher() -> (FileWatcher, InotifyInstance) {
    let instance = InotifyInstance()
    let watcher = FileWatcher(
      inotify: InotifyCalls(
        initialize: {
          let descriptor = InotifyCalls.system.initialize()
          instance.descriptor.withLock { $0 = descriptor }
          return descriptor
        },
        addWatch: InotifyCalls.system.addWatch
      ),
      warn: { _ in }
    )
    return (watcher, instance)
  }

  /// An inotify instance, as the kernel lists it in `/proc/self/fdinfo`.
  private final class InotifyInstance: Sendable {
    let descriptor = Locked<Int32>(-1)

    /// The inode of each directory the instance watches.
    var watchedInodes: Set<UInt64> {
      let path = "/proc/self/fdinfo/\(descriptor.withLock { $0 })"
      guard let info = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
      // NB: One line per watch: "inotify wd:1 ino:2a sdev:… mask:…", the inode in hexadecimal.
      return Set(
        info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.compactMap { line in
          line.split(separator: " ").first { $0.hasPrefix("ino:") }
            .flatMap { UInt64($0.dropFirst(4), radix: 16) }
        }
      )
    }

    var watchCount: Int { watchedInodes.count }
  }

  /// Lines the watcher wrote, collected instead of going to standard error.
  private final class Warnings: Sendable {
    private let lines = Locked<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    var append: @Sendable (String) -> Void {
      { [lines] line in lines.withLock { $0.append(line) } }
    }
  }

  /// A watcher that polls every `interval` a file whose watch the kernel refused, which it
  /// does (as when the system's limit is reached) whenever `refuses` says so.
  private func makeWatcher(
    pollingEvery interval: Duration,
    refusingWatchesWhen refuses: @escaping @Sendable () -> Bool
  ) -> FileWatcher {
    FileWatcher(
      inotify: InotifyCalls(
        initialize: InotifyCalls.system.initialize,
        addWatch: { instance, path, mask in
          refuses() ? -ENOSPC : InotifyCalls.system.addWatch(instance, path, mask)
        }
      ),
      pollingInterval: interval,
      warn: { _ in }
    )
  }

  /// Sets the file's modification time, by the file system's clock.
  private func setModificationTime(of url: URL, to time: Duration) throws {
    let (seconds, attoseconds) = time.components
    let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    let times = [stamp, stamp]
    guard utimensat(AT_FDCWD, url.path, times, 0) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }
#endif
