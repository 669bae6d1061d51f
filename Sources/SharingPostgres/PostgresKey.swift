public import Foundation
public import SharingCore
import SharingDependencies
import SharingPersistence

/// A ``/SharingCore/SharedKey`` that keeps a value in a row of a PostgreSQL table, shared live by
/// every process, on every machine, that uses the key.
///
/// Create one with ``SharingCore/SharedReaderKey/postgres(_:decoder:encoder:)`` for `Codable`
/// values, or ``SharingCore/SharedReaderKey/postgres(_:decode:encode:)`` for any value:
///
/// ```swift
/// @Shared(.postgres("feature-flags")) var flags = FeatureFlags()
/// $flags.withLock { $0.darkMode = true }   // written within a second, seen everywhere
/// ```
///
/// - A server's key loads in the background: creating it never waits on the network, and its
///   shared value holds the default, ``/SharingCore/Shared/isLoading``, until the row is read.
///   A missing row gives the default value; the row is created by the first write.
/// - Changes are written in the background: the first change after a quiet second at once,
///   later ones at most once per second (the database's throttle), the latest value always
///   written. ``/SharingCore/Shared/save()`` writes at once.
/// - A change committed by anyone — another process through this package, or plain SQL — is
///   played back into every shared value of the key, through `LISTEN`/`NOTIFY`.
/// - A row whose JSON cannot be decoded sets ``/SharingCore/Shared/loadError`` and is left as it
///   is, the shared value keeping the last value it could decode; before a change overwrites
///   it, its value is kept in a row named `<key>.corrupt-<UTC timestamp>`.
/// - While the server cannot be reached, loads and saves fail within the database's timeout
///   (``PostgresDatabase/Configuration/timeout``) with a ``PostgresError`` as
///   ``/SharingCore/Shared/loadError`` and ``/SharingCore/Shared/saveError``; values stay in
///   memory, and once the server is back, the failed write is made again (its success
///   clears ``/SharingCore/Shared/saveError``) and every key reloaded. A reload never takes
///   back a value whose write failed, unless someone else wrote the row since.
/// - A value that was never loaded from the server — its first load has not ended, or the
///   server could not be reached — holds its default: a change made to it then is written
///   only if there is no row. A row the server holds wins: it is loaded into the value, and
///   ``/SharingCore/Shared/saveError`` says the change was not written. Wait for
///   ``/SharingCore/Shared/isLoading`` to be `false` before changing a value that another
///   process may have stored.
///
/// For a `withLock` that is exclusive across processes, use ``CoordinatedPostgresKey``.
public struct PostgresKey<Value: Sendable>: SharedKey {
  let database: PostgresDatabase
  let key: String
  /// The key's hold on its row's record, found once rather than at every save.
  private let holder: RecordHolder<RowIO>
  var row: RowRecord { holder.record }
  let decode: @Sendable (Data) throws -> Value
  let encode: @Sendable (Value) throws -> Data

  /// - Parameter isCoordinated: Whether the key is the base of a ``CoordinatedPostgresKey``.
  init(
    _ key: String,
    isCoordinated: Bool = false,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    @Dependency(\.defaultPostgresDatabase) var database
    self.database = database
    self.key = key
    self.holder = database.store.holder(for: key, isCoordinated: isCoordinated)
    self.decode = decode
    self.encode = encode
  }

  /// The key and the database it lives in.
  public var id: PostgresKeyID {
    PostgresKeyID(key: key, store: ObjectIdentifier(database.store), isCoordinated: false)
  }

  /// Reads the row, off the caller's thread for a server: ``/SharingCore/Shared/isLoading``
  /// until it is read. An explicit load writes the value's pending change first.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let isUserInitiated = if case .userInitiated = context { true } else { false }
    let load: @Sendable () -> Void = { [self] in
      row.load(waitingForWrites: isUserInitiated) { read in
        continuation.resume(with: read.flatMap(decoded))
      }
    }
    guard database.isRemote else { return load() }
    DispatchQueue.global().async(execute: load)
  }

  /// Plays back changes committed by anyone else.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    row.subscribe(subscriber, decoding: decoded)
  }

  /// Writes the value: throttled after a change, at once when
  /// ``/SharingCore/Shared/save()`` is called.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    save(reading: { value }, context: context, continuation: continuation)
  }

  /// Writes the value `value` returns when the row is written: a throttled write that waits
  /// keeps no copy of the value, which would make the next change copy all of it.
  public func save(
    reading value: @escaping @Sendable () -> Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    row.save(
      { [encode] in try encode(value()) },
      urgency: context == .userInitiated ? .immediate : .throttled,
      continuation: continuation
    )
  }

  func decoded(_ snapshot: StoredSnapshot<Int64>) -> Result<Value?, any Error> {
    guard let json = snapshot.contents, let version = snapshot.stamp else { return .success(nil) }
    do {
      let value = try decode(json)
      row.markDecodable()
      return .success(value)
    } catch {
      row.markUndecodable(json)
      return .failure(PostgresDecodingError(key: key, version: version, underlying: error))
    }
  }
}

extension PostgresKey: CustomStringConvertible {
  /// The key as written at the call site, e.g. `.postgres("feature-flags")`.
  public var description: String {
    ".postgres(\(String(reflecting: key)))"
  }
}

extension SharedReaderKey {
  /// A key that keeps a `Codable` value as JSON in a row of the default PostgreSQL database.
  ///
  /// ```swift
  /// @Shared(.postgres("feature-flags")) var flags = FeatureFlags()
  /// ```
  ///
  /// The database is ``SharingDependencies/DependencyValues/defaultPostgresDatabase`` at the
  /// time the key is created: the server libpq's environment names in a program, an in-memory
  /// stand-in in tests and previews.
  ///
  /// - Parameters:
  ///   - key: The row's key.
  ///   - decoder: The decoder that reads the row's JSON.
  ///   - encoder: The encoder that writes it.
  /// - Returns: A PostgreSQL key.
  public static func postgres<Value: Codable>(
    _ key: String,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = JSONEncoder()
  ) -> Self where Self == PostgresKey<Value> {
    PostgresKey(key, decoder: decoder, encoder: encoder)
  }

  /// A key that keeps any value in a row of the default PostgreSQL database, with custom
  /// coding to JSON.
  ///
  /// ```swift
  /// extension SharedReaderKey where Self == PostgresKey<String> {
  ///   static var motd: Self {
  ///     .postgres(
  ///       "motd",
  ///       decode: { try JSONDecoder().decode(String.self, from: $0) },
  ///       encode: { try JSONEncoder().encode($0) }
  ///     )
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The row's key.
  ///   - decode: Makes a value from the row's JSON text.
  ///   - encode: Makes JSON text from a value; text that is not JSON fails to save, with the
  ///     server's error as ``/SharingCore/Shared/saveError``.
  /// - Returns: A PostgreSQL key.
  public static func postgres<Value>(
    _ key: String,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == PostgresKey<Value> {
    PostgresKey(key, decode: decode, encode: encode)
  }
}

extension PostgresKey where Value: Codable {
  /// A key coding its value to JSON with `decoder` and `encoder`.
  init(
    _ key: String,
    isCoordinated: Bool = false,
    decoder: JSONDecoder,
    encoder: JSONEncoder
  ) {
    self.init(
      key,
      isCoordinated: isCoordinated,
      decode: { try decoder.decode(Value.self, from: $0) },
      encode: { try encoder.encode($0) }
    )
  }
}
