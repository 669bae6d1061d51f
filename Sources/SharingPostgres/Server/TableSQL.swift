import Foundation

/// The SQL of one table of keys: its names, and the statements the keys run (its schema is in
/// `TableSQL+Schema.swift`).
///
/// Every write draws the row's version from the table's sequence, so that a version is never
/// used twice, even by a row deleted and inserted again. This package's writes say who they
/// are (`sharing.writer`), stamp the row themselves, and, once committed, notify the key's
/// bucket channel only if a process other than this one listens to it (`<table>_notify`); a
/// writer in plain SQL has the table's trigger stamp the row and notify. See
/// <doc:RunningOnManyMachines>.
struct TableSQL: Sendable {
  /// The table, as given: `name` or `schema.name`.
  let table: String
  let quoted: String
  /// The trigger function, the sequence, the table of listeners, and the functions that
  /// register listeners and notify them, each quoted, beside the table.
  let function: String
  let sequence: String
  let listeners: String
  let listenFunction: String
  let notifyFunction: String
  /// The unqualified names of the table and of its table of listeners, quoted, as the
  /// functions see them: their search path is the table's schema.
  let unqualified: String
  let unqualifiedListeners: String

  /// Checks the name: one or two identifiers of letters, digits and underscores.
  init(table: String) throws {
    let parts = table.split(separator: ".", omittingEmptySubsequences: false)
    let isIdentifier = { (part: Substring) in
      guard let first = part.first, !first.isNumber else { return false }
      return part.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
    guard (1...2).contains(parts.count), parts.allSatisfy(isIdentifier), table.count <= 50
    else {
      throw PostgresError(
        "'\(table)' is not a table name: use letters, digits and underscores, as 'name' or "
          + "'schema.name'."
      )
    }
    self.table = table
    let name = parts[parts.count - 1]
    let named = { (suffix: String) in
      (parts.dropLast().map { "\"\($0)\"" } + ["\"\(name)\(suffix)\""]).joined(separator: ".")
    }
    quoted = named("")
    function = named("_changed")
    sequence = named("_versions")
    listeners = named("_listeners")
    listenFunction = named("_listen")
    notifyFunction = named("_notify")
    unqualified = "\"\(name)\""
    unqualifiedListeners = "\"\(name)_listeners\""
  }

  /// The prefix of the table's channels: `<table>#<bucket>`.
  var channelPrefix: String { "\(table)#" }

  /// The SQL of the bucket of a key given as SQL text (see ``KeyBuckets``).
  static func bucket(of key: String) -> String {
    "(('x' || left(md5(convert_to(\(key), 'UTF8')), 8))::bit(32)::int & \(KeyBuckets.count - 1))"
  }

  /// `$1`: the key.
  var select: String { "SELECT value::text, version FROM \(quoted) WHERE key = $1" }

  /// Says that this package writes, so that the triggers let the row be, and bounds how long
  /// the server holds the transaction: `$1` and `$2`, in milliseconds.
  func writer(timeout: Duration) -> Statement {
    let milliseconds = "\(Int(timeout / .milliseconds(1)))"
    return Statement(
      """
      SELECT set_config('sharing.writer', 'SharingPostgres', true),
        set_config('statement_timeout', $1, true),
        set_config('idle_in_transaction_session_timeout', $2, true)
      """,
      [milliseconds, milliseconds]
    )
  }

  /// After committing writes, in a transaction of its own: notifies the listeners of other
  /// processes of the rows of `keys` (`atOnce`), or only counts them; returns how many keys
  /// have listeners. `listener`: the process ID of this process's listening connection, whose
  /// keys it knows already. The transaction does not wait for the disk: only for a moment
  /// does it hold the lock that orders notifications.
  func notify(_ keys: some Sequence<String>, atOnce: Bool, listener: Int32?) -> Statement {
    Statement(
      "SELECT \(notifyFunction)($1::text[], $2::boolean, $3::int)",
      [Self.array(keys), atOnce ? "true" : "false", "\(listener ?? 0)"]
    )
  }

  /// Listens to exactly the channels of `buckets` on the listening connection and registers
  /// them for the writers; returns the connection's process ID.
  func listen(to buckets: Set<Int>) -> Statement {
    Statement(
      "SELECT \(listenFunction)($1::int[])",
      ["{" + buckets.sorted().map(String.init).joined(separator: ",") + "}"]
    )
  }

  /// `$1`: the key; `$2`: the JSON.
  var upsert: String {
    """
    INSERT INTO \(quoted) (key, value, version, updated_at)
    VALUES ($1, $2::jsonb, nextval('\(sequence)'), now())
    ON CONFLICT (key) DO UPDATE
    SET value = EXCLUDED.value, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
    RETURNING version
    """
  }

  /// Like ``upsert``, keeping the row's current value under `<key>.corrupt-<UTC timestamp>`.
  var upsertKeepingAside: String {
    """
    WITH kept AS (
      INSERT INTO \(quoted) (key, value, version, updated_at)
      SELECT key || '.corrupt-'
        || to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        value, nextval('\(sequence)'), now()
      FROM \(quoted) WHERE key = $1
      ON CONFLICT (key) DO NOTHING
    )
    \(upsert)
    """
  }

  /// `$1`: the key; `$2`: the JSON. Returns a row only if it inserted one.
  var insertIfMissing: String {
    """
    INSERT INTO \(quoted) (key, value, version, updated_at)
    VALUES ($1, $2::jsonb, nextval('\(sequence)'), now())
    ON CONFLICT (key) DO NOTHING RETURNING version
    """
  }

  /// `$1`: the key.
  var selectForUpdate: String { select + " FOR UPDATE" }

  /// Draws the version that the transaction's update will write, once the row is locked.
  var drawVersion: String { "SELECT nextval('\(sequence)')" }

  /// `$1`: the key; `$2`: the JSON; `$3`: the version drawn.
  var update: String {
    """
    UPDATE \(quoted) SET value = $2::jsonb, version = $3, updated_at = now()
    WHERE key = $1 RETURNING version
    """
  }

  /// A PostgreSQL array literal of text.
  private static func array(_ strings: some Sequence<String>) -> String {
    let elements = strings.map { string in
      let escaped = string.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"")
      return "\"\(escaped)\""
    }
    return "{" + elements.joined(separator: ",") + "}"
  }
}
