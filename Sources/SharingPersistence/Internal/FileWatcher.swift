import Foundation
import SharingDependencies

#if os(Linux) || os(Android)
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Android)
    import Android
  #endif

  /// Watches files for changes made by anyone, with one inotify descriptor and one reader
  /// thread for the whole process.
  ///
  /// A file is watched through its parent directory, filtered by name, so that deleting it,
  /// renaming another file over it and re-creating it are all seen (a watch on the file itself
  /// would die with the first atomic replace). A directory that does not exist yet is waited
  /// for through its nearest existing ancestor, one path component at a time.
  ///
  /// Handlers run on the reader thread, never with the lock held.
  /// When the kernel refuses an instance or a watch (usually at a per-user limit), changes are
  /// not played back: that is reported once per call and error, naming the limit to raise.
  final class FileWatcher: Sendable {
    static let shared = FileWatcher(inotify: .system)

    private struct Watch {
      let path: String
      let onChange: @Sendable () -> Void
      /// Where the watch listens now: the file's directory, or a missing directory's parent.
      var binding: Binding?
    }

    /// A watched directory, and the entry in it that concerns a watch.
    private struct Binding {
      let descriptor: Int32
      let directory: String
      let name: String
      /// Whether the entry is the file itself, rather than a missing directory on its path.
      let isParent: Bool
    }

    private struct State {
      var nextID = 0
      var watches: [Int: Watch] = [:]
      /// Watch identifiers by inotify watch descriptor and entry name.
      var directories: [Int32: [String: Set<Int>]] = [:]
      var isReading = false
      /// Failures met with the lock held, to report once it is released.
      var failures: [InotifyFailure] = []

      mutating func takeFailures() -> [InotifyFailure] {
        defer { failures = [] }
        return failures
      }
    }

    // NB: 'IN_CREATE' only matters for directories (a missing ancestor appearing): a file's
    //     content is complete at 'IN_CLOSE_WRITE' or 'IN_MOVED_TO', and reading it at
    //     'IN_CREATE' would see it empty.
    private static let mask =
      UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
      | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let inotify: InotifyCalls
    /// The inotify instance, or the negated error that refused it.
    private let descriptor: Int32
    private let state = Locked(State())
    /// The failures already reported, by ``InotifyFailure/kind``.
    private let reported = Locked<Set<String>>([])

    /// A watcher making its inotify calls through `inotify`.
    init(inotify: InotifyCalls) {
      self.inotify = inotify
      descriptor = inotify.initialize()
    }

    // NB: Only reached without a reader thread, which keeps the watcher alive: as for tests'
    //     watchers, which never bind a watch.
    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Calls `onChange` whenever the file at `path` may have changed, until the returned
    /// watch is stopped; the watch is active if the kernel accepted it.
    func watch(path: String, onChange: @escaping @Sendable () -> Void) -> FileWatch {
      guard descriptor >= 0 else {
        report([InotifyFailure(call: "inotify_init1", code: -descriptor, path: nil)])
        return FileWatch(isActive: false) {}
      }
      let (id, isBound, startsReader, failures) = state.withLock { state in
        let id = state.nextID
        state.nextID += 1
        state.watches[id] = Watch(path: path, onChange: onChange)
        arm(id, in: &state)
        let isBound = state.watches[id]?.binding != nil
        let startsReader = !state.isReading && isBound
        if startsReader { state.isReading = true }
        return (id, isBound, startsReader, state.takeFailures())
      }
      report(failures)
      if startsReader {
        let thread = Thread { [self] in readEvents() }
        thread.name = "Sharing.FileWatcher"
        thread.start()
      }
      return FileWatch(isActive: isBound) { [self] in
        state.withLock { state in
          unbind(id, in: &state)
          state.watches[id] = nil
        }
      }
    }

    // MARK: Binding watches to directories

    /// Watches the file's directory, or the nearest existing ancestor if it is missing.
    private func arm(_ id: Int, in state: inout State) {
      guard let path = state.watches[id]?.path else { return }
      // NB: A missing directory may be created between the failed watch on it and the watch
      //     on its parent, whose creation event would then never come: look again, a few times.
      for _ in 0..<8 {
        guard let binding = addWatch(for: path, in: &state) else { return }
        state.directories[binding.descriptor, default: [:]][binding.name, default: []].insert(id)
        state.watches[id]?.binding = binding
        let entry = (binding.directory as NSString).appendingPathComponent(binding.name)
        guard !binding.isParent, access(entry, F_OK) == 0 else { return }
        unbind(id, in: &state)
      }
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
          state.failures.append(
            InotifyFailure(call: "inotify_add_watch", code: code, path: directory)
          )
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
      if state.directories[watchDescriptor]?.isEmpty == true {
        state.directories[watchDescriptor] = nil
        inotify_rm_watch(descriptor, watchDescriptor)
      }
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
          report([InotifyFailure(call: "read", code: errno, path: nil)])
          return
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
          let (more, failures) = state.withLock { state in
            (handle(watchDescriptor, mask, name, in: &state), state.takeFailures())
          }
          handlers += more
          report(failures)
          offset += 16 + length
        }
        for handler in handlers { handler() }
      }
    }

    /// Reports each kind of failure the first time it happens.
    private func report(_ failures: [InotifyFailure]) {
      guard !failures.isEmpty else { return }
      let fresh = reported.withLock { reported in
        failures.filter { reported.insert($0.kind).inserted }
      }
      for failure in fresh { reportIssue(failure.message) }
    }

    /// Updates the bindings for one event and returns the handlers to call.
    private func handle(
      _ watchDescriptor: Int32,
      _ mask: UInt32,
      _ name: String?,
      in state: inout State
    ) -> [@Sendable () -> Void] {
      if mask & UInt32(IN_Q_OVERFLOW) != 0 {
        // NB: Events were lost: every file may have changed.
        return state.watches.values.map(\.onChange)
      }
      guard let entries = state.directories[watchDescriptor] else { return [] }
      let isDirectoryGone =
        mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0
      let ids: Set<Int>
      if isDirectoryGone {
        ids = entries.values.reduce(into: []) { $0.formUnion($1) }
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
      guard descriptor >= 0 else { return FileWatch(isActive: false) {} }
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
      return FileWatch(isActive: false) { source.base.cancel() }
    }
  }

  private final class SourceBox: @unchecked Sendable {
    // NB: Unchecked: dispatch sources are thread-safe; the protocol is not marked 'Sendable'.
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
      FileWatch(isActive: false) {}
    }
  }
#endif
