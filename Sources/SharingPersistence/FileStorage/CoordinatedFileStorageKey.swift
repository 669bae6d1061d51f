public import Foundation
public import SharingCore
import SharingDependencies

/// A ``FileStorageKey`` whose every change is exclusive across every process using the file:
/// `N` processes incrementing one value lose nothing.
///
/// Create one by adding ``FileStorageCoordination/coordinated`` to a key:
///
/// ```swift
/// @Shared(.fileStorage(.todos, .coordinated)) var todos: [Todo] = []
/// $todos.withLock { $0.append(todo) }   // kept, whatever other processes do meanwhile
/// ```
///
/// Each ``/SharingCore/Shared/withLock(_:)`` takes an exclusive `flock` on the lock file beside
/// the file (`.<name>.lock`, created if missing and never removed; never the file itself,
/// which each write replaces), reads the file and decodes it if it changed since this process
/// last read or wrote it, runs the change on that value, and writes the result atomically
/// (temporary file, `fsync`, `rename`) before releasing the lock. Memory then holds the
/// written value, and observers are told once.
///
/// - Cost: a synchronous read and, when the value changed, a synchronous `fsync`ed write on
///   every `withLock`, while every other process's changes to the file wait: nothing is
///   throttled. Keep coordination for values that several processes change, and make many
///   changes in one `withLock` rather than one each.
/// - A file that cannot be decoded is never replaced: the change is refused, with
///   ``/SharingCore/Shared/saveError`` saying so, and the file's bytes are kept in a sibling
///   file, `<name>.corrupt-<UTC timestamp>`. Fix or remove the file to change it again.
/// - A lock that cannot be taken (a file system without locks, no permission to create the
///   lock file) refuses the change, with ``/SharingCore/Shared/saveError`` naming the cause.
/// - If the file holds no value, the change starts from the value in memory.
/// - Loads read under a shared lock; changes made by other programs are played back, as for
///   ``FileStorageKey``. ``/SharingCore/Shared/save()`` has nothing to write: each change
///   was written before its `withLock` returned.
/// - On a virtual file system (``FileStorage/inMemory``), the lock is one of the process.
/// - Loading the file, or changing it through another key (another path to it), from inside a
///   `withLock` on it is a programming error, reported rather than waiting for the lock
///   forever: the load reads the file as the change found it, and the inner change is not
///   written, with ``/SharingCore/Shared/saveError`` saying so.
///
/// Every use of a file must agree on coordination: one used both with and without it is
/// reported.
public struct CoordinatedFileStorageKey<Value: Sendable>: CoordinatedSharedKey {
  let base: FileStorageKey<Value>
  private let cache = Locked(TransactionCache<Value>())

  init(url: URL, format: StoredFormat<Value>) {
    self.base = FileStorageKey(url: url, format: format, isCoordinated: true)
  }

  /// The file and the storage it lives in.
  public var id: FileStorageKeyID { base.id }

  /// Reads and decodes the file, under a lock shared with other readers.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  /// Plays back changes made to the file by anything else.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }

  /// Writes nothing: every change was written by its transaction, and writing the value in
  /// memory again could replace a change another process made since.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    continuation.resume()
  }

  /// Runs one change with the file locked against every process: brings `value` up to date
  /// with the file, calls `body` once, and writes the result before releasing the lock.
  public func withTransaction(_ value: inout Value, _ body: (inout Value) throws -> Void) throws {
    var changed: (value: Value, bytes: Data)?
    try base.file.transaction { snapshot in
      var current = try stored(in: snapshot.contents, memory: value)
      try body(&current)
      let encoded = try base.encode(current)
      changed = (current, encoded)
      return encoded
    }
    guard let changed else { return }
    cache.withLock { $0.known = (changed.bytes, changed.value) }
    value = changed.value
  }

  /// The value the file's `bytes` hold: decoded only if they are not those this key last
  /// read or wrote; the value in `memory` if the file holds no value.
  private func stored(in bytes: Data?, memory: Value) throws -> Value {
    guard let bytes else { return memory }
    if let known = cache.withLock({ $0.known }), known.bytes == bytes { return known.value }
    let value: Value
    do {
      value = try base.format.decode(bytes, location: base.url.lastPathComponent).value
    } catch {
      // Kept aside once, however often the change is tried again.
      let keptAt = cache.withLock { cache in
        if let kept = cache.keptAside, kept.bytes == bytes { return kept.url }
        let url = try? CorruptFile.preserve(bytes, of: base.url, in: base.storage.backend)
        cache.keptAside = (bytes, url)
        return url
      }
      throw FileError.undecodable(url: base.url, keptAt: keptAt, cause: error)
    }
    cache.withLock { $0.known = (bytes, value) }
    return value
  }
}

extension CoordinatedFileStorageKey: CustomStringConvertible {
  /// The key as written at its call site, e.g. `.fileStorage(file:///tmp/n.json, .coordinated)`.
  public var description: String {
    ".fileStorage(\(String(reflecting: base.url)), .coordinated)"
  }
}

/// Asks a file storage key for a `withLock` that is exclusive across processes.
public enum FileStorageCoordination: Sendable {
  /// Every change is made with the file locked against every process; see
  /// ``CoordinatedFileStorageKey``.
  case coordinated
}

extension SharedReaderKey {
  /// A key that persists a `Codable` value to a file as JSON, changed only with the file
  /// locked against every process using it.
  ///
  /// ```swift
  /// @Shared(.fileStorage(URL(filePath: "/var/lib/jobs/count.json"), .coordinated))
  /// var count = 0
  /// $count.withLock { $0 += 1 }   // exact, whatever other processes do meanwhile
  /// ```
  ///
  /// Each `withLock` costs a synchronous read of the file and an `fsync`ed write, with every
  /// other process's changes waiting: nothing is throttled. See ``CoordinatedFileStorageKey``.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - coordination: ``FileStorageCoordination/coordinated``.
  ///   - decoder: The decoder that reads the file.
  ///   - encoder: The encoder that writes the file; by default pretty-printed JSON with sorted
  ///     keys.
  /// - Returns: A coordinated file storage key.
  public static func fileStorage<Value: Codable>(
    _ url: URL,
    _ coordination: FileStorageCoordination,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = defaultFileStorageEncoder()
  ) -> Self where Self == CoordinatedFileStorageKey<Value> {
    CoordinatedFileStorageKey(url: url, format: .json(decoder: decoder, encoder: encoder))
  }

  /// A key that persists any value to a file with custom coding, changed only with the file
  /// locked against every process using it.
  ///
  /// Each `withLock` costs a synchronous read of the file and an `fsync`ed write, with every
  /// other process's changes waiting: nothing is throttled. See ``CoordinatedFileStorageKey``.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - coordination: ``FileStorageCoordination/coordinated``.
  ///   - decode: Makes a value from the bytes of the file.
  ///   - encode: Makes the bytes of the file from a value.
  /// - Returns: A coordinated file storage key.
  public static func fileStorage<Value>(
    _ url: URL,
    _ coordination: FileStorageCoordination,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == CoordinatedFileStorageKey<Value> {
    CoordinatedFileStorageKey(
      url: url,
      format: StoredFormat(isJSON: false, decode: decode, encode: encode)
    )
  }
}

/// The bytes a coordinated key last read or wrote, and their value: a change finding them in
/// the file needs no decoding.
private struct TransactionCache<Value> {
  var known: (bytes: Data, value: Value)?
  /// Undecodable bytes already kept aside, and where.
  var keptAside: (bytes: Data, url: URL?)?
}
