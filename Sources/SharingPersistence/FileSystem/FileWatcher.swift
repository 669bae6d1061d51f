import Foundation
import SharingDependencies

#if os(Linux) || os(Android)
  /// Watches files for changes made by anyone, with one inotify descriptor and one reader
  /// thread for the whole process.
  ///
  /// A file is watched through its parent directory, filtered by name, so that deleting it,
  /// renaming another file over it and re-creating it are all seen (a watch on the file itself
  /// would die with the first atomic replace). A directory that does not exist yet is waited
  /// for through its nearest existing ancestor, one path component at a time.
  ///
  /// A directory has one watch, shared by every file watched in it, and events are dispatched
  /// by name. It stays watched for a while after its last file's watch stops (the latest
  /// ``idleDirectoryLimit`` such directories): the first watch on a directory makes the
  /// kernel walk its entries, which takes milliseconds in a directory of thousands of files,
  /// so a program that creates and drops a value for each of them would pay it every time.
  ///
  /// When the kernel refuses an instance or a watch (usually at a per-user limit), or a
  /// watched directory cannot be watched again after it was re-created, the file is polled
  /// instead (every `pollingInterval`; see `FileWatcher+Polling.swift`), and its watch is no
  /// longer active. That is a condition of the system, not a programmer error: it is written
  /// once per call and error to standard error, naming the limit to raise, and no issue is
  /// reported.
  ///
  /// Handlers run on the reader or polling thread, never with the lock held.
  final class FileWatcher: Sendable {
    static let shared = FileWatcher(inotify: .system)

    /// How many directories stay watched once no file's watch uses them.
    static let idleDirectoryLimit = 16

    struct Watch {
      let path: String
      let onChange: @Sendable () -> Void
      /// Where the watch listens now: the file's directory, or a missing directory's parent.
      var binding: Binding?
      /// The file's stamp when it was last checked, while it is polled because inotify could
      /// not watch it.
      var polled: PolledStamp?
    }

    /// A watched directory, and the entry in it that concerns a watch.
    struct Binding {
      let descriptor: Int32
      let directory: String
      let name: String
      /// Whether the entry is the file itself, rather than a missing directory on its path.
      let isParent: Bool
    }

    struct State {
      var nextID = 0
      var watches: [Int: Watch] = [:]
      /// Watch identifiers by inotify watch descriptor and entry name; none for a directory
      /// that is idle.
      var directories: [Int32: [String: Set<Int>]] = [:]
      /// The watched directories no file's watch uses, the one idle longest first.
      var idleDirectories: [Int32] = []
      var isReading = false
      /// Whether a check of the polled files is scheduled.
      var isPolling = false
      /// Whether reading events failed: no watch is bound any more.
      var cannotRead = false
      /// Failures met with the lock held, each kind the first time, to write once it is
      /// released.
      var failures: [InotifyFailure] = []
      /// The kinds (``InotifyFailure/kind``) of the failures met so far.
      var failureKinds: Set<String> = []

      /// Notes that `call` failed with `code`, to write unless a failure of its kind was.
      mutating func fail(_ call: String, _ code: Int32, path: String? = nil) {
        let failure = InotifyFailure(call: call, code: code, path: path)
        if failureKinds.insert(failure.kind).inserted { failures.append(failure) }
      }
    }

    // 'IN_CREATE' only matters for directories (a missing ancestor appearing): a file's
    // content is complete at 'IN_CLOSE_WRITE' or 'IN_MOVED_TO', and reading it at
    // 'IN_CREATE' would see it empty.
    private static let mask =
      UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
      | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let inotify: InotifyCalls
    /// The inotify instance, or the negated error that refused it.
    private let descriptor: Int32
    /// How often the files inotify cannot watch are checked for changes.
    let pollingInterval: Duration
    private let warn: @Sendable (String) -> Void
    let state = Locked(State())

    /// A watcher making its inotify calls through `inotify`.
    ///
    /// - Parameters:
    ///   - pollingInterval: How often files that cannot be watched are checked for changes.
    ///   - warn: Where to write why files cannot be watched; standard error by default.
    init(
      inotify: InotifyCalls,
      pollingInterval: Duration = .seconds(1),
      warn: @escaping @Sendable (String) -> Void = {
        FileHandle.standardError.write(Data("[Sharing] \($0)\n".utf8))
      }
    ) {
      self.inotify = inotify
      self.pollingInterval = pollingInterval
      self.warn = warn
      descriptor = inotify.initialize()
    }

    // Only reached without a reader thread or a polling timer, which keep the watcher alive:
    // as for tests' watchers, which never bind a watch.
    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Calls `onChange` whenever the file at `path` may have changed, until the returned
    /// watch is stopped; the watch is active while inotify watches the file, rather than
    /// polling finding its changes.
    func watch(path: String, onChange: @escaping @Sendable () -> Void) -> FileWatch {
      let (id, startsReader) = withState { state in
        let id = state.nextID
        state.nextID += 1
        state.watches[id] = Watch(path: path, onChange: onChange)
        arm(id, in: &state)
        let startsReader = !state.isReading && state.watches[id]?.binding != nil
        if startsReader { state.isReading = true }
        return (id, startsReader)
      }
      if startsReader {
        let thread = Thread { [self] in readEvents() }
        thread.name = "Sharing.FileWatcher"
        thread.start()
      }
      return FileWatch(
        isLive: { [self] in state.withLock { $0.watches[id]?.binding != nil } },
        stop: { [self] in
          state.withLock { state in
            unbind(id, in: &state)
            state.watches[id] = nil
          }
        }
      )
    }

    /// Runs `body` with the lock held, then writes the failures it met, each kind the first
    /// time it happens.
    private func withState<R>(_ body: (inout State) -> R) -> R {
      let (result, failures) = state.withLock { state in
        defer { state.failures = [] }
        return (body(&state), state.failures)
      }
      for failure in failures { warn(failure.message(pollingEvery: pollingInterval)) }
      return result
    }

    // MARK: Binding watches to directories

    /// Watches the file's directory, or the nearest existing ancestor if it is missing; polls
    /// the file if neither can be watched, or if there is no inotify instance to read.
    private func arm(_ id: Int, in state: inout State) {
      guard let path = state.watches[id]?.path else { return }
      if descriptor < 0 { state.fail("inotify_init1", -descriptor) }
      guard descriptor >= 0, !state.cannotRead else { return poll(id, in: &state) }
      // A missing directory may be created between the failed watch on it and the watch
      // on its parent, whose creation event would then never come: look again, a few times.
      for _ in 0..<8 {
        guard let binding = addWatch(for: path, in: &state) else { break }
        state.idleDirectories.removeAll { $0 == binding.descriptor }
        state.directories[binding.descriptor, default: [:]][binding.name, default: []].insert(id)
        state.watches[id]?.binding = binding
        let entry = (binding.directory as NSString).appendingPathComponent(binding.name)
        guard !binding.isParent, access(entry, F_OK) == 0 else { return }
        unbind(id, in: &state)
      }
      poll(id, in: &state)
    }

    /// Watches the file's directory, or its nearest existing ancestor.
    private func addWatch(for path: String, in state: inout State) -> Binding? {
      var directory = (path as NSString).deletingLastPathComponent
      var name = (path as NSString).lastPathComponent
      var isParent = true
      while true {
        let watchDescriptor = inotify.addWatch(descriptor, directory, Self.mask)
        if watchDescriptor >= 0 {
          return Binding(
            descriptor: watchDescriptor,
            directory: directory,
            name: name,
            isParent: isParent
          )
        }
        let code = -watchDescriptor
        guard code == ENOENT || code == ENOTDIR else {
          state.fail("inotify_add_watch", code, path: directory)
          return nil
        }
        guard directory != "/", !directory.isEmpty else { return nil }
        name = (directory as NSString).lastPathComponent
        directory = (directory as NSString).deletingLastPathComponent
        isParent = false
      }
    }

    private func unbind(_ id: Int, in state: inout State) {
      guard let binding = state.watches[id]?.binding else { return }
      let (watchDescriptor, name) = (binding.descriptor, binding.name)
      state.watches[id]?.binding = nil
      state.directories[watchDescriptor]?[name]?.remove(id)
      if state.directories[watchDescriptor]?[name]?.isEmpty == true {
        state.directories[watchDescriptor]?[name] = nil
      }
      guard state.directories[watchDescriptor]?.isEmpty == true else { return }
      state.idleDirectories.append(watchDescriptor)
      if state.idleDirectories.count > Self.idleDirectoryLimit {
        forget(state.idleDirectories[0], in: &state)
      }
    }

    /// Stops watching a directory, which no watch is bound to.
    private func forget(_ watchDescriptor: Int32, in state: inout State) {
      state.idleDirectories.removeAll { $0 == watchDescriptor }
      state.directories[watchDescriptor] = nil
      inotify_rm_watch(descriptor, watchDescriptor)
    }

    // MARK: Reading events

    private func readEvents() {
      let capacity = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        if count < 0 {
          if errno == EINTR { continue }
          return stopReading(failingWith: errno)
        }
        var handlers: [@Sendable () -> Void] = []
        var offset = 0
        while offset + 16 <= count {
          let watchDescriptor = buffer.load(fromByteOffset: offset, as: Int32.self)
          let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
          let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
          let name =
            length > 0
            ? String(cString: buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self))
            : nil
          handlers += withState { handle(watchDescriptor, mask, name, in: &$0) }
          offset += 16 + length
        }
        for handler in handlers { handler() }
      }
    }

    /// Polls every file from now on: events can no longer be read.
    private func stopReading(failingWith code: Int32) {
      let handlers = withState { state in
        state.cannotRead = true
        state.fail("read", code)
        for id in state.watches.keys {
          unbind(id, in: &state)
          poll(id, in: &state)
        }
        // Changes may have been missed since the last event read.
        return state.watches.values.map(\.onChange)
      }
      for handler in handlers { handler() }
    }

    /// Updates the bindings for one event and returns the handlers to call.
    private func handle(
      _ watchDescriptor: Int32,
      _ mask: UInt32,
      _ name: String?,
      in state: inout State
    ) -> [@Sendable () -> Void] {
      if mask & UInt32(IN_Q_OVERFLOW) != 0 {
        // Events were lost: every file may have changed.
        return state.watches.values.map(\.onChange)
      }
      guard let entries = state.directories[watchDescriptor] else { return [] }
      let isDirectoryGone =
        mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0
      let ids: Set<Int>
      if isDirectoryGone {
        ids = entries.values.reduce(into: []) { $0.formUnion($1) }
        // Forgotten before its files are watched again, so that none is bound to it.
        for id in ids { state.watches[id]?.binding = nil }
        forget(watchDescriptor, in: &state)
      } else if let name, let named = entries[name] {
        let isFileEvent = mask & UInt32(IN_ISDIR) == 0
        if mask & UInt32(IN_CREATE) != 0 && isFileEvent { return [] }
        ids = named
      } else {
        return []
      }
      var handlers: [@Sendable () -> Void] = []
      for id in ids.sorted() {
        guard let watch = state.watches[id] else { continue }
        if isDirectoryGone || watch.binding?.isParent != true {
          unbind(id, in: &state)
          arm(id, in: &state)
        }
        handlers.append(watch.onChange)
      }
      return handlers
    }
  }
#elseif canImport(Darwin)
  import Darwin
  import Dispatch

  /// Watches files with a dispatch source on each file's parent directory: creating,
  /// deleting and renaming over the file are seen, in-place writes to it are not.
  final class FileWatcher: Sendable {
    static let shared = FileWatcher()

    private let queue = DispatchQueue(label: "Sharing.FileWatcher")

    /// Calls `onChange` when the file's directory changes, until the watch is stopped.
    ///
    /// The watch is never active: writes made in place to the file are not seen.
    func watch(path: String, onChange: @escaping @Sendable () -> Void) -> FileWatch {
      let descriptor = open((path as NSString).deletingLastPathComponent, O_EVTONLY)
      guard descriptor >= 0 else { return FileWatch(isLive: false) {} }
      let source = SourceBox(
        DispatchSource.makeFileSystemObjectSource(
          fileDescriptor: descriptor,
          eventMask: [.write, .delete, .rename],
          queue: queue
        )
      )
      source.base.setEventHandler(handler: onChange)
      source.base.setCancelHandler { close(descriptor) }
      source.base.resume()
      return FileWatch(isLive: false) { source.base.cancel() }
    }
  }

  private final class SourceBox: @unchecked Sendable {
    // Unchecked: dispatch sources are thread-safe; the protocol is not marked 'Sendable'.
    let base: any DispatchSourceFileSystemObject

    init(_ base: any DispatchSourceFileSystemObject) {
      self.base = base
    }
  }
#else
  /// Watches nothing: this platform has no file change notifications the package uses, so
  /// files are read and written as usual, but changes other programs make to them are not
  /// played back until a shared value loads them again.
  final class FileWatcher: Sendable {
    static let shared = FileWatcher()

    func watch(path: String, onChange: @escaping @Sendable () -> Void) -> FileWatch {
      FileWatch(isLive: false) {}
    }
  }
#endif
