/// The SQL of one table of keys: its names, and the statements the keys run (its schema is in
/// `TableSQL+Schema.swift`).
///
/// Every write draws the row's version from the table's sequence, so that a version is never
/// used twice, even by a row deleted and inserted again. This package's writes say who they
/// are (`sharing.writer`), stamp the row themselves, and look for a process other than this
/// one listening to the key's bucket, a plain write before it commits
/// (``heard(_:besides:)``), a transaction after: only if there is one do they notify the
/// bucket's channel, once committed (`<table>_notify`). A writer in plain SQL has the table's
/// trigger stamp the row and notify. See <doc:RunningOnManyMachines>.
struct TableSQL: Sendable {
  /// The table, as given: `name` or `schema.name`.
  let table: String
  /// The table's schema, if it was given, and its name.
  private let schema: Substring?
  private let name: Substring
  /// The statements of every write and every read, prepared on each connection.
  let select: PreparedSQL
  let upsert: PreparedSQL
  let upsertKeepingAside: PreparedSQL
  private let lockBucketSQL: PreparedSQL
  private let isHeardSQL: PreparedSQL

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
    let (schema, name) = (parts.count == 2 ? parts[0] : nil, parts[parts.count - 1])
    (self.schema, self.name) = (schema, name)
    let quoted = Self.named("", schema: schema, name: name)
    let sequence = Self.named("_versions", schema: schema, name: name)
    select = PreparedSQL("SELECT value::text, version FROM \(quoted) WHERE key = $1")
    let upsert = """
      INSERT INTO \(quoted) (key, value, version, updated_at)
      VALUES ($1, $2::jsonb, nextval('\(sequence)'), now())
      ON CONFLICT (key) DO UPDATE
      SET value = EXCLUDED.value, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
      RETURNING version
      """
    self.upsert = PreparedSQL(upsert)
    // Keeps the row's current value under `<key>.corrupt-<UTC timestamp>` first.
    upsertKeepingAside = PreparedSQL(
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
    )
    lockBucketSQL = PreparedSQL(
      "SELECT pg_advisory_xact_lock_shared(\(Self.lockClass), \(Self.lockKey(of: "$1::int", in: quoted)))"
    )
    isHeardSQL = PreparedSQL(
      """
      SELECT EXISTS (SELECT FROM \(Self.named("_listeners", schema: schema, name: name)) AS other
        WHERE other.bucket = $1::int AND other.pid <> $2::int)
      """
    )
  }

  /// The name of the table with `suffix`, quoted and qualified by the table's schema.
  private func named(_ suffix: String) -> String {
    Self.named(suffix, schema: schema, name: name)
  }

  private static func named(_ suffix: String, schema: Substring?, name: Substring) -> String {
    (schema.map { "\"\($0)\"." } ?? "") + "\"\(name)\(suffix)\""
  }

  /// The table, quoted.
  var quoted: String { named("") }
  /// The trigger function, the sequence, and the functions that register listeners, look for
  /// them and notify them, each quoted, beside the table.
  var function: String { named("_changed") }
  var sequence: String { named("_versions") }
  var listenFunction: String { named("_listen") }
  var heardFunction: String { named("_heard") }
  var notifyFunction: String { named("_notify") }
  /// The unqualified names of the table and of its table of listeners, quoted, as the
  /// functions see them: their search path is the table's schema.
  var unqualified: String { "\"\(name)\"" }
  var unqualifiedListeners: String { "\"\(name)_listeners\"" }

  /// The prefix of the table's channels: `<table>#<bucket>`.
  var channelPrefix: String { "\(table)#" }

  /// The SQL of the bucket of a key given as SQL text (see ``KeyBuckets``).
  static func bucket(of key: String) -> String {
    "(('x' || left(md5(convert_to(\(key), 'UTF8')), 8))::bit(32)::int & \(KeyBuckets.count - 1))"
  }

  /// The first key of the advisory locks that order this package's writes against the
  /// registration of listeners, in PostgreSQL's two-key form (`pg_advisory_xact_lock(int,
  /// int)`): `0x53685067` (1399345255), "ShPg" in ASCII. The second key is ``lockKey(of:)``.
  /// Documented in <doc:RunningOnManyMachines>, so that an application's own advisory locks
  /// keep clear of it.
  static let lockClass: Int32 = 0x5368_5067

  /// How many locks a table's 1,024 buckets share, a bucket's being its number modulo this: a
  /// registration takes at most this many, the default `max_locks_per_transaction`, so that
  /// processes registering every bucket at once do not fill the server's lock table.
  static let lockStripes = 64

  /// The SQL of the second key of the lock of a bucket given as SQL, in the table's functions:
  /// the table's OID modulo 2²⁵, times ``lockStripes``, plus the bucket's stripe, so that the
  /// tables of a database lock apart.
  func lockKey(of bucket: String) -> String {
    Self.lockKey(of: bucket, in: unqualified)
  }

  /// ``lockKey(of:)``, with the table as `table` names it.
  private static func lockKey(of bucket: String, in table: String) -> String {
    "(('\(table)'::regclass::oid::bigint % 33554432) * \(lockStripes)"
      + " + (\(bucket)) % \(lockStripes))::int"
  }

  /// Opens a plain write's transaction. Read committed, whatever the server's default: the
  /// query of ``heard(_:besides:)`` must see the registrations committed before its lock.
  /// Prepared, as each statement of a plain write is, so that the server does not parse it
  /// at every write.
  static let begin = Statement(PreparedSQL("BEGIN ISOLATION LEVEL READ COMMITTED"))
  /// Commits a plain write's transaction; prepared, as ``begin`` is.
  static let commit = Statement(PreparedSQL("COMMIT"))

  /// In a write's transaction, after it wrote the row of `key`, just before its commit, two
  /// statements: the first takes the lock of the key's bucket, shared, until the transaction
  /// ends, the second says whether the listening connection of a process other than this one
  /// (`listener`, its server process ID) is registered for the bucket; if one is, the write
  /// notifies it once committed.
  ///
  /// A registration takes the same lock, exclusive, before recording its buckets, and the
  /// registering process reads the rows of its new buckets once it committed. So either the
  /// write locks first, the registration commits after the write, and the reading finds the
  /// value written; or the write locks after the registration committed, and its query,
  /// whose snapshot is taken once the lock is granted (a statement of its own, after the
  /// lock's, in a read committed transaction), finds the listener, whose `LISTEN` is in force
  /// by then. Writes share the lock, and take it once they hold their row, with nothing
  /// left to wait for but their commit: a registration waits only for commits in flight, and
  /// the writes queued behind it wait for no one else, so no waits close a cycle. The lock is
  /// held from the end of the write's statements to its commit, on the server, without a
  /// round trip between.
  func heard(_ key: String, besides listener: Int32?) -> [Statement] {
    let bucket = "\(KeyBuckets.bucket(of: key))"
    return [
      Statement(lockBucketSQL, [bucket]), Statement(isHeardSQL, [bucket, "\(listener ?? 0)"]),
    ]
  }

  /// Says that this package writes, so that the triggers let the row be, and bounds how long
  /// the server holds the transaction: `$1` and `$2`, in milliseconds.
  func writer(timeout: Duration) -> Statement {
    let milliseconds = "\(Int(timeout / .milliseconds(1)))"
    return Statement(Self.writerSQL, [milliseconds, milliseconds])
  }

  private static let writerSQL = PreparedSQL(
    """
    SELECT set_config('sharing.writer', 'SharingPostgres', true),
      set_config('statement_timeout', $1, true),
      set_config('idle_in_transaction_session_timeout', $2, true)
    """
  )

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

  /// `$1`: the key; `$2`: the JSON. Returns a row only if it inserted one.
  var insertIfMissing: String {
    """
    INSERT INTO \(quoted) (key, value, version, updated_at)
    VALUES ($1, $2::jsonb, nextval('\(sequence)'), now())
    ON CONFLICT (key) DO NOTHING RETURNING version
    """
  }

  /// `$1`: the key.
  var selectForUpdate: String { select.text + " FOR UPDATE" }

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
      var element = "\""
      // By scalar: a quote or backslash followed by a combining mark is one `Character`.
      for scalar in string.unicodeScalars {
        if scalar == "\\" || scalar == "\"" { element.unicodeScalars.append("\\") }
        element.unicodeScalars.append(scalar)
      }
      return element + "\""
    }
    return "{" + elements.joined(separator: ",") + "}"
  }
}
