public import Foundation
public import SharingCore
import SharingDependencies

/// A ``/SharingCore/SharedKey`` that persists a value to a file.
///
/// Create one with ``SharingCore/SharedReaderKey/fileStorage(_:decoder:encoder:)`` for `Codable`
/// values, or ``SharingCore/SharedReaderKey/fileStorage(_:decode:encode:)`` for any value:
///
/// ```swift
/// extension URL {
///   static let todos = FileManager.default
///     .urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
///     .appending(components: "Todos", "todos.json")
/// }
/// @Shared(.fileStorage(.todos)) var todos: [Todo] = []
/// ```
///
/// - A missing or empty file gives the default value.
/// - The first change after a quiet second is written before `withLock` returns; later ones
///   in the background, at most once per second (or per the key's own interval, given by
///   `throttle:`), the latest value always written. ``/SharingCore/Shared/save()`` writes at
///   once; ``flushPendingWrites()`` writes every pending value; pending writes are flushed when
///   the program exits normally. Each write replaces the file atomically, and is skipped when
///   the watched file already holds the same bytes. See <doc:Durability>.
/// - Changes made to the file by another program (written, deleted, renamed over,
///   re-created) are played back; a deleted file gives the default value again.
/// - A file that cannot be decoded sets ``/SharingCore/Shared/loadError`` and leaves the default
///   value in memory. Its bytes are kept in a sibling file, `<name>.corrupt-<UTC timestamp>`,
///   before the file is next written.
/// - A file that exists but cannot be read is never overwritten: writes fail until it can be
///   read or is removed.
/// - A failed write sets ``/SharingCore/Shared/saveError``; the value in memory is kept.
public struct FileStorageKey<Value: Sendable>: SharedKey {
  let storage: FileStorage
  let url: URL
  let format: StoredFormat<Value>
  /// The least time between two throttled writes, if not the storage's.
  let throttle: Duration?
  /// Whether the file is only changed in transactions locked against every process, as
  /// ``CoordinatedFileStorageKey`` changes it: then loads read under a shared lock, and a
  /// migrated value is written back under the exclusive one.
  let isCoordinated: Bool
  /// The key's hold on its file's record, found once rather than at every save.
  private let holder: RecordHolder<FileIO>
  var file: FileRecord { holder.record }
  /// Encodes in the key's format. A closure, so that a save captures no generic struct,
  /// whose type metadata it would look up.
  let encode: @Sendable (Value) throws -> Data

  init(
    url: URL,
    format: StoredFormat<Value>,
    throttle: Duration? = nil,
    isCoordinated: Bool = false
  ) {
    @Dependency(\.defaultFileStorage) var storage
    if !url.isFileURL, url.scheme != nil {
      reportIssue("\(FileError.notAFileURL(url))")
    }
    self.storage = storage
    self.url = url.standardizedFileURL
    self.format = format
    self.throttle = throttle
    self.isCoordinated = isCoordinated
    self.holder = storage.holder(for: self.url, throttle: throttle, isCoordinated: isCoordinated)
    self.encode = { [format, writeCounts = storage.writeCounts, url = self.url] in
      writeCounts?.recordEncode(for: url)
      return try format.encode($0)
    }
  }

  /// The file and the storage it lives in.
  public var id: FileStorageKeyID {
    FileStorageKeyID(url: url, storage: storage, isCoordinated: isCoordinated)
  }

  /// Reads and decodes the file, once this program's pending writes to it have landed.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let apply = { (read: Result<StoredSnapshot<Data>, any Error>) in
      continuation.resume(
        with: read.flatMap {
          decoded($0.contents, writeBack: { continuation.writeBackFinished($0) })
        }
      )
    }
    isCoordinated ? file.loadLocked(into: apply) : file.load(into: apply)
  }

  /// Plays back changes made to the file by anything else.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    file.subscribe(subscriber) {
      decoded($0.contents, writeBack: { subscriber.writeBackFinished($0) })
    }
  }

  /// Writes the value: throttled after a change, at once when ``/SharingCore/Shared/save()`` is
  /// called.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    save(reading: { value }, context: context, continuation: continuation)
  }

  /// Writes the value `value` returns when the file is written: a throttled write that
  /// waits keeps no copy of the value, which would make the next change copy all of it.
  public func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    file.save(
      { [encode] in try encode(value()) },
      urgency: context == .userInitiated ? .immediate : .throttled,
      interval: throttle,
      continuation: continuation
    )
  }

  /// The value the file's `contents` hold, `nil` for none.
  ///
  /// - Parameter writeBack: Told how writing back a migrated value went.
  func decoded(
    _ contents: Data?,
    writeBack: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) -> Result<Value?, any Error> {
    guard let contents else {
      file.markDecodable()
      return .success(nil)
    }
    let value: Value
    let isMigrated: Bool
    do {
      (value, isMigrated) = try format.decode(contents, location: url.lastPathComponent)
    } catch {
      // A condition of the data, not a programmer error: 'loadError' says it, and the
      // bytes are kept aside before the file is next written.
      file.markUndecodable(contents)
      return .failure(error)
    }
    file.markDecodable()
    guard isMigrated else { return .success(value) }
    if isCoordinated {
      // Under the lock, and only over the bytes migrated: a change another process made
      // meanwhile is newer.
      writeBack(
        Result {
          try file.transaction { [encode] current in
            current.contents == contents ? try encode(value) : nil
          }
        }
      )
    } else {
      // Written back at once, so that the value is migrated once, not at every load.
      save(
        value,
        context: .userInitiated,
        continuation: SaveContinuation(self.description, callback: writeBack)
      )
    }
    return .success(value)
  }
}

extension FileStorageKey: CustomStringConvertible {
  /// The key with its URL, as swift-sharing prints it, e.g.
  /// `.fileStorage(file:///tmp/todos.json)`.
  public var description: String {
    ".fileStorage(\(String(reflecting: url)))"
  }
}

extension SharedReaderKey {
  /// A key that persists a `Codable` value to a file as JSON.
  ///
  /// ```swift
  /// @Shared(.fileStorage(URL(filePath: "/var/lib/todos/todos.json")))
  /// var todos: [Todo] = []
  /// ```
  ///
  /// The file storage is ``SharingDependencies/DependencyValues/defaultFileStorage`` at the time
  /// the key is created: the real file system in a program, a virtual one in tests and previews.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - decoder: The decoder that reads the file.
  ///   - encoder: The encoder that writes the file; by default pretty-printed JSON with sorted
  ///     keys.
  /// - Returns: A file storage key.
  public static func fileStorage<Value: Codable>(
    _ url: URL,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = defaultFileStorageEncoder()
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      format: .json(decoder: decoder, encoder: encoder)
    )
  }

  /// A key that persists any value to a file, with custom coding.
  ///
  /// ```swift
  /// extension SharedReaderKey where Self == FileStorageKey<String> {
  ///   static var notes: Self {
  ///     .fileStorage(
  ///       URL(filePath: "/var/lib/notes/notes.txt"),
  ///       decode: { String(decoding: $0, as: UTF8.self) },
  ///       encode: { Data($0.utf8) }
  ///     )
  ///   }
  /// }
  ///
  /// @Shared(.notes) var notes = ""
  /// ```
  ///
  /// > Note: Written inline in a `@Shared(…)` attribute, the closures need an explicit
  /// > `{ @Sendable in … }`: Swift 6.3 does not infer that they are `Sendable` there.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - decode: Makes a value from the bytes of the file.
  ///   - encode: Makes the bytes of the file from a value.
  /// - Returns: A file storage key.
  public static func fileStorage<Value>(
    _ url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, format: StoredFormat(isJSON: false, decode: decode, encode: encode))
  }
}

/// The encoder `fileStorage` keys use by default: pretty-printed JSON with sorted keys, which
/// reads well and diffs well.
@usableFromInline
func defaultFileStorageEncoder() -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return encoder
}
