public import Foundation
public import SharingCore
import SharingPersistence

/// A ``PostgresKey`` whose every change is a transaction of the server, exclusive across every
/// process and machine using the key: `N` processes incrementing one value lose nothing.
///
/// Create one by adding ``PostgresCoordination/coordinated`` to a key:
///
/// ```swift
/// @Shared(.postgres("jobs-cursor", .coordinated)) var cursor = 0
/// $cursor.withLock { $0 += 1 }   // exact, whatever other processes do meanwhile
/// ```
///
/// Each change locks the row (`SELECT … FOR UPDATE`, inserting it first if missing), starts
/// from the stored value if another writer changed it, runs the change, and commits the new
/// value before returning: two round trips to the server per change, never throttled. If the
/// change throws, the transaction is rolled back. ``/SharingCore/Shared/save()`` has nothing
/// to write: each change was committed before its `withLock` returned. A change the server
/// refuses (it cannot be reached, the row cannot be decoded) is not made, in memory either,
/// and its error is ``/SharingCore/Shared/saveError``; it is not retried. A change whose
/// `COMMIT` was sent but never answered (the connection was lost, or the timeout passed) may
/// have been made: its ``/SharingCore/Shared/saveError`` says so, it is not made again, and
/// memory takes what the row holds once the server answers. Loading and playback are as for
/// ``PostgresKey``.
///
/// Every use of a key in a process must agree on coordination: one used both with and without
/// it is reported, as a change made without it could overwrite a coordinated one unseen.
public struct CoordinatedPostgresKey<Value: Sendable>: CoordinatedSharedKey {
  let base: PostgresKey<Value>

  /// The key and the database it lives in.
  public var id: PostgresKeyID {
    PostgresKeyID(key: base.key, store: base.id.store, isCoordinated: true)
  }

  /// Reads the row.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  /// Plays back changes committed by anyone else.
  public func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }

  /// Writes nothing: every change was committed by its transaction, and writing the value in
  /// memory again could replace a change another process committed since.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    continuation.resume()
  }

  /// Runs one change as a transaction: locks the row, brings `value` up to date with it,
  /// calls `body` once, writes the result and commits; rolls back if `body` throws.
  public func withTransaction(_ value: inout Value, _ body: (inout Value) throws -> Void) throws {
    // Under the row's lock the stored value is the truth, seen or not: starting from it
    // keeps the change exact even if `value` is behind.
    var changed = value
    try base.row.transaction { stored in
      changed = try base.decoded(stored).get() ?? value
      try body(&changed)
      return try base.encode(changed)
    }
    value = changed
  }
}

extension CoordinatedPostgresKey: CustomStringConvertible {
  /// The key as written at the call site, e.g. `.postgres("count", .coordinated)`.
  public var description: String {
    ".postgres(\(String(reflecting: base.key)), .coordinated)"
  }
}

/// Asks a PostgreSQL key for a `withLock` that is exclusive across processes.
public enum PostgresCoordination: Sendable {
  /// Every change is a transaction of the server; see ``CoordinatedPostgresKey``.
  case coordinated
}

extension SharedReaderKey {
  /// A key that keeps a `Codable` value in a row of the default PostgreSQL database, changed
  /// only in transactions exclusive across processes.
  ///
  /// ```swift
  /// @Shared(.postgres("visits", .coordinated)) var visits = 0
  /// ```
  ///
  /// - Parameters:
  ///   - key: The row's key.
  ///   - coordination: ``PostgresCoordination/coordinated``.
  ///   - decoder: The decoder that reads the row's JSON.
  ///   - encoder: The encoder that writes it.
  /// - Returns: A coordinated PostgreSQL key.
  public static func postgres<Value: Codable>(
    _ key: String,
    _ coordination: PostgresCoordination,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = JSONEncoder()
  ) -> Self where Self == CoordinatedPostgresKey<Value> {
    CoordinatedPostgresKey(
      base: PostgresKey(key, isCoordinated: true, decoder: decoder, encoder: encoder)
    )
  }

  /// A key that keeps any value in a row of the default PostgreSQL database, with custom
  /// coding to JSON, changed only in transactions exclusive across processes.
  ///
  /// - Parameters:
  ///   - key: The row's key.
  ///   - coordination: ``PostgresCoordination/coordinated``.
  ///   - decode: Makes a value from the row's JSON text.
  ///   - encode: Makes JSON text from a value.
  /// - Returns: A coordinated PostgreSQL key.
  public static func postgres<Value>(
    _ key: String,
    _ coordination: PostgresCoordination,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == CoordinatedPostgresKey<Value> {
    CoordinatedPostgresKey(
      base: PostgresKey(key, isCoordinated: true, decode: decode, encode: encode)
    )
  }
}
