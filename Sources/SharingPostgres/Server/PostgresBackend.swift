import Foundation

/// A row of the table: a key's value as JSON text, and its version, which the table's
/// trigger raises by one at every write, whoever makes it.
struct StoredRow: Equatable, Sendable {
  var json: Data
  var version: Int64

  /// Checks that a key and its JSON can reach PostgreSQL intact: `text` and `jsonb` cannot
  /// hold the NUL character, which would end them early on the way, so that `"a\u{0}b"`
  /// would write the row of `"a"`; nor does `jsonb` take it escaped, as `\u0000`.
  static func check(key: String, json: Data? = nil) throws {
    if key.utf8.contains(0) {
      throw PostgresError(
        "The key \(String(reflecting: key)) contains the NUL character, which PostgreSQL's "
          + "text cannot hold: use another key."
      )
    }
    if let json, json.contains(0) || escapesNul(json) {
      throw PostgresError(
        "The JSON of \(String(reflecting: key)) contains the NUL character, which jsonb "
          + "cannot hold."
      )
    }
  }

  /// Whether JSON text holds the NUL character escaped, `\u0000`, which `jsonb` refuses
  /// ("unsupported Unicode escape sequence"); `\\u0000` is a backslash and text.
  private static func escapesNul(_ json: Data) -> Bool {
    var rest = json[...]
    while let backslash = rest.firstIndex(of: UInt8(ascii: "\\")) {
      let escaped = rest[backslash...].dropFirst()
      if escaped.starts(with: "u0000".utf8) { return true }
      rest = escaped.dropFirst()
    }
    return false
  }
}

/// What the table's listener hears.
enum ListenEvent: Sendable, Equatable {
  /// A row was written (its new version) or deleted (`nil`).
  case changed(key: String, version: Int64?)
  /// The listening connection is up, for the first time or again after ``lost(_:)``;
  /// notifications sent meanwhile were missed.
  case listening(afterLoss: Bool)
  /// The changes of keys in these buckets (``KeyBuckets``), and only those, are heard from
  /// now on: reported once the connection listens to them, before ``listening(afterLoss:)``
  /// when it connects, and again whenever the buckets change.
  case listened(buckets: Set<Int>)
  /// The listening connection was lost, or could not be made.
  case lost(PostgresError)
}

/// The server a ``PostgresDatabase`` talks to: PostgreSQL through libpq, or the in-memory
/// stand-in that tests use. Each call is one round trip and may block; none is made while a
/// lock of ours is held.
protocol PostgresBackend: Sendable {
  /// Reads a key's row, if there is one.
  func fetch(_ key: String) throws -> StoredRow?

  /// Inserts or replaces a key's value.
  ///
  /// - Parameter keepsAside: Whether to keep the row's current value first under
  ///   `<key>.corrupt-<UTC timestamp>`, because it could not be decoded.
  /// - Returns: The version written.
  func write(_ key: String, json: Data, keepsAside: Bool) throws -> Int64

  /// Runs a change of one key's value with its row locked (`SELECT … FOR UPDATE`), inserting
  /// the row first if it is missing.
  ///
  /// - Parameters:
  ///   - missing: The value to insert if there is no row.
  ///   - body: Makes the new value from the locked row, and whether it was just inserted;
  ///     if it throws, nothing is written.
  /// - Returns: The version written.
  /// - Throws: ``TransactionOutcomeUnknown`` if the commit was sent and its answer lost: the
  ///   change may have been made.
  func transaction(
    _ key: String,
    inserting missing: Data,
    _ body: (StoredRow, _ inserted: Bool) throws -> Data
  ) throws -> Int64

  /// Reports the notifications of the keys in the buckets that `buckets` returns, and the
  /// state of the listening connection, until the returned session is stopped.
  func listen(
    to buckets: @escaping @Sendable () -> Set<Int>,
    _ onEvent: @escaping @Sendable (ListenEvent) -> Void
  ) -> any ListenSession

  /// Sends the notifications of this process's writes held back to be sent together now,
  /// and returns once they are sent or failed.
  func sendHeldNotifications()
}

extension PostgresBackend {
  /// Sends the notifications of this process's writes held back to be sent together (see
  /// ``HintBatch``) now, and returns once they are sent or failed. None by default.
  func sendHeldNotifications() {}
}

/// A listening connection, as ``PostgresBackend/listen(to:_:)`` returns it.
protocol ListenSession: Sendable {
  /// The buckets to listen to changed: they are asked for again, and listened to.
  func bucketsChanged()

  /// Closes the connection.
  func stop()
}
