import Foundation
import SharingDependencies

/// The record of one file of a ``FileStorage``, shared by every key of the file.
typealias FileRecord = Record<FileIO>

/// What a file does for its ``Record``: its reads, atomic writes, watch and locked changes,
/// on the real disk or a virtual file system.
///
/// A file's stamp is its bytes: a change noticed with the bytes the program last read or wrote
/// is its own.
struct FileIO: TransactionalRecordIO {
  let url: URL
  let backend: any FileSystemBackend
  let writeCounts: WriteCounts?
  /// How the keys holding the file use it, checked for consistency.
  let uses: FileUses

  /// The bytes older swift-sharing versions wrote to create a file before watching it.
  static let swiftSharingStub = Data("co.pointfree.Sharing.FileStorage.stub".utf8)

  /// The file's bytes; no file, an empty one and swift-sharing's stub hold no value.
  func read() throws -> StoredSnapshot<Data> {
    var bytes = try backend.contents(of: url)
    // NB: Older swift-sharing versions left these bytes for "no value": the file is emptied,
    //     as swift-sharing empties it.
    if bytes == Self.swiftSharingStub, (try? backend.write(Data(), to: url)) != nil {
      bytes = Data()
    }
    let holdsValue = bytes.map { !$0.isEmpty && $0 != Self.swiftSharingStub } ?? false
    return StoredSnapshot(stamp: bytes, contents: holdsValue ? bytes : nil)
  }

  func write(_ contents: Data, keepingAside undecodable: Data?) throws -> Data {
    if let undecodable { try CorruptFile.preserve(undecodable, of: url, in: backend) }
    try replaceContents(with: contents)
    return contents
  }

  private func replaceContents(with contents: Data) throws {
    try backend.write(contents, to: url)
    writeCounts?.recordWrite(to: url)
    uses.removeAbandonedTemporaryFilesOnce { backend.removeAbandonedTemporaryFiles(of: url) }
  }

  /// Watches the file; on the real disk, a file that does not exist, or no longer does, is
  /// created empty first, as swift-sharing does.
  func watch(_ onChange: @escaping @Sendable (Data?) -> Void) -> any RecordWatch {
    backend.createEmptyFileIfMissing(at: url)
    return backend.watch(url) { [backend, url] in
      backend.createEmptyFileIfMissing(at: url)
      onChange(nil)
    }
  }

  /// A ``FileError/unreadable(url:cause:)``: a file that cannot be read is never overwritten, and
  /// one that holds a value nobody loaded is loaded rather than overwritten.
  func refusal(cause: (any Error)?) -> any Error {
    FileError.unreadable(url: url, cause: cause)
  }

  /// Changes the file with its lock held against every process using it.
  ///
  /// A change from inside another change of the file, on the thread holding its lock, is
  /// reported, and refused: the outer change's write would replace it.
  ///
  /// - Throws: A ``FileError`` if the lock cannot be taken, if this thread holds it, or if
  ///   the file cannot be read, or the error of `change` or of the write.
  func transaction(
    read: (Result<StoredSnapshot<Data>, any Error>) -> Void,
    _ change: (StoredSnapshot<Data>) throws -> Data?
  ) throws -> (stamp: Data, contents: Data)? {
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
      throw FileError.nestedChange(url: url)
    }
    let snapshot = Result { try self.read() }
    read(snapshot)
    let current = try snapshot.mapError { FileError.unreadable(url: url, cause: $0) }.get()
    guard let contents = try change(current), contents != current.stamp else { return nil }
    try replaceContents(with: contents)
    return (contents, contents)
  }
}

extension Record where IO == FileIO {
  /// Loads the file as ``load(waitingForWrites:reading:into:)`` does, reading it while
  /// holding its lock shared with other readers, so that no coordinated change is under way
  /// meanwhile.
  ///
  /// A load from inside a change of the file, on the thread holding its lock, is reported,
  /// and reads the file as the change found it.
  func loadLocked<R>(into apply: (Result<StoredSnapshot<Data>, any Error>) -> R) -> R {
    let lock: FileLock
    do {
      lock = try io.backend.lock(io.url, exclusive: false)
    } catch {
      return apply(.failure(error))
    }
    guard lock.isReentry else {
      lock.unlock()
      return load(reading: readLocked, into: apply)
    }
    // A reentry holds nothing, so there is nothing to release.
    reportIssue(
      """
      'load' of \(io.url.path) was called from inside a change of it, on the thread holding \
      its lock: it reads the file as the change found it. Use the value the change's body is \
      given instead.
      """
    )
    return apply(Result { try io.read() })
  }

  private func readLocked() throws -> StoredSnapshot<Data> {
    let lock = try io.backend.lock(io.url, exclusive: false)
    defer { lock.unlock() }
    return try io.read()
  }
}

/// How the keys holding one file use it: they must agree on its throttle and coordination,
/// and one that does not is reported once.
final class FileUses: Sendable {
  private struct State {
    var holders = 0
    var interval: Duration?
    var isCoordinated: Bool?
    var hasReportedTwoIntervals = false
    var hasReportedMixedCoordination = false
    var hasRemovedTemporaryFiles = false
  }

  private let state = Locked(State())

  /// The number of files with a record, in every storage.
  static let liveCount = Locked(0)

  init() {
    Self.liveCount.withLock { $0 += 1 }
  }

  deinit {
    Self.liveCount.withLock { $0 -= 1 }
  }

  /// A key for the file was created, asking for `interval` between throttled writes, or for
  /// coordinated changes. Returns what to report, if the key disagrees with the others.
  func added(interval: Duration, isCoordinated: Bool, of url: URL) -> String? {
    state.withLock { state in
      state.holders += 1
      if let existing = state.isCoordinated, existing != isCoordinated {
        guard !state.hasReportedMixedCoordination else { return nil }
        state.hasReportedMixedCoordination = true
        return """
          The file \(url.path) is used both with and without '.coordinated'. Changes made \
          without it can overwrite coordinated ones, and coordinated changes are not played \
          back to the keys without it: give every use of the file the same coordination.
          """
      }
      state.isCoordinated = isCoordinated
      guard let existing = state.interval else {
        state.interval = interval
        return nil
      }
      guard existing != interval, !state.hasReportedTwoIntervals else { return nil }
      state.hasReportedTwoIntervals = true
      return """
        The file \(url.path) is used with two throttles: \(existing) and \(interval). Every \
        use of a file shares one value, saved with the throttle of the key that saves it: \
        give every use of the file the same throttle.
        """
    }
  }

  /// A key for the file went away: once none is left, later keys may use it differently.
  func removed() {
    state.withLock { state in
      state.holders -= 1
      if state.holders == 0 { (state.interval, state.isCoordinated) = (nil, nil) }
    }
  }

  /// Runs `remove` before the first write only: writes killed before their rename leave
  /// temporary files behind.
  func removeAbandonedTemporaryFilesOnce(_ remove: () -> Void) {
    let isFirst = state.withLock { state in
      defer { state.hasRemovedTemporaryFiles = true }
      return !state.hasRemovedTemporaryFiles
    }
    if isFirst { remove() }
  }
}
