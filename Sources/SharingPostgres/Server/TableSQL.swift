import Foundation

/// The SQL of one table of keys: its schema, its trigger, and the statements the keys run.
///
/// The trigger stamps every insert and update with a version drawn from the table's sequence,
/// so that a version is never used twice, even by a row deleted and inserted again, and with
/// the time. A writer other than this package (plain SQL) also has the trigger notify the
/// table's channel with `<version> <key>` (`0 <key>` for a delete). This package's writes
/// say who they are (`sharing.writer`) and notify in a transaction of their own, right
/// after the write commits, that does not wait for the disk: a transaction that notifies
/// holds PostgreSQL's notification lock until its commit is flushed, which would make every
/// commit wait for the previous one.
struct TableSQL: Sendable {
  /// The table, as given: `name` or `schema.name`.
  let table: String
  private let quoted: String
  private let function: String
  private let sequence: String

  /// Marks a trigger function of the current schema, in its comment.
  static let schemaVersion = "SharingPostgres schema 2"

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
    let quote = { (parts: [Substring]) in parts.map { "\"\($0)\"" }.joined(separator: ".") }
    self.quoted = quote(parts)
    let last = parts.count - 1
    var functionParts = parts
    functionParts[last] += "_changed"
    self.function = quote(functionParts)
    var sequenceParts = parts
    sequenceParts[last] += "_versions"
    self.sequence = quote(sequenceParts)
  }

  /// The channel the trigger and writers notify.
  var channel: String { table }

  var listen: String { "LISTEN \"\(channel)\"" }

  /// Whether the table is ready: its triggers are there and its function is of the current
  /// schema. `$1`: the table; `$2`: the function.
  var isSetUp: Statement {
    Statement(
      """
      SELECT (SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass($1)
          AND tgname IN ('sharing_stamp', 'sharing_notify')) = 2
        AND obj_description(to_regproc($2)::oid, 'pg_proc') = '\(Self.schemaVersion)'
      """,
      [table, function]
    )
  }

  /// Creates what is missing, or brings an older schema up to date, in one transaction
  /// holding an advisory lock so that processes starting together do not collide.
  var setUp: [Statement] {
    [
      Statement("BEGIN"),
      Statement("SELECT pg_advisory_xact_lock(hashtext('sharing ' || $1))", [table]),
      Statement(
        """
        CREATE TABLE IF NOT EXISTS \(quoted) (
          key text PRIMARY KEY,
          value jsonb NOT NULL,
          version bigint NOT NULL DEFAULT 1,
          updated_at timestamptz NOT NULL DEFAULT now()
        )
        """
      ),
      Statement("CREATE SEQUENCE IF NOT EXISTS \(sequence)"),
      // NB: A table of schema 1 counted versions per row, from 1: versions go on above them.
      //     Only then: a process may be drawing from the sequence already.
      Statement(
        """
        SELECT setval('\(sequence)', max(version)) FROM \(quoted)
        HAVING max(version) IS NOT NULL
          AND obj_description(to_regproc($1)::oid, 'pg_proc') IS DISTINCT FROM '\(Self.schemaVersion)'
        """,
        [function]
      ),
      Statement(
        """
        CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql
        SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            PERFORM pg_notify('\(channel)', '0 ' || OLD.key);
            RETURN OLD;
          ELSIF TG_WHEN = 'BEFORE' THEN
            NEW.version := coalesce(
              nullif(current_setting('sharing.version', true), '')::bigint,
              nextval(format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME || '_versions')::regclass));
            NEW.updated_at := now();
            RETURN NEW;
          END IF;
          PERFORM pg_notify('\(channel)', NEW.version || ' ' || NEW.key);
          RETURN NEW;
        END
        $body$
        """
      ),
      Statement("COMMENT ON FUNCTION \(function)() IS '\(Self.schemaVersion)'"),
      Statement("DROP TRIGGER IF EXISTS sharing_stamp ON \(quoted)"),
      Statement(
        """
        CREATE TRIGGER sharing_stamp BEFORE INSERT OR UPDATE ON \(quoted)
        FOR EACH ROW EXECUTE FUNCTION \(function)()
        """
      ),
      Statement("DROP TRIGGER IF EXISTS sharing_notify ON \(quoted)"),
      Statement(
        """
        CREATE TRIGGER sharing_notify AFTER INSERT OR UPDATE OR DELETE ON \(quoted)
        FOR EACH ROW WHEN (coalesce(current_setting('sharing.writer', true), '') = '')
        EXECUTE FUNCTION \(function)()
        """
      ),
      Statement("COMMIT"),
    ]
  }

  /// `$1`: the key.
  var select: String { "SELECT value::text, version FROM \(quoted) WHERE key = $1" }

  /// Says that this package writes, so that the trigger does not notify, and bounds how
  /// long the server holds the transaction: `$1` and `$2`, in milliseconds.
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

  /// Notifies the channel of the row's version, in a transaction that does not wait for the
  /// disk: only for a moment does it hold the lock that orders notifications.
  func notify(_ key: String) -> [Statement] {
    [
      Statement("BEGIN"),
      Statement(
        """
        SELECT set_config('synchronous_commit', 'off', true),
          pg_notify($1, version || ' ' || key)
        FROM \(quoted) WHERE key = $2
        """,
        [channel, key]
      ),
      Statement("COMMIT"),
    ]
  }

  /// Notifies the channel of several keys' versions at once, like ``notify(_:)``: `$2`, a
  /// JSON array of `{"key": …, "version": …}`.
  func notify(_ versions: [String: Int64]) -> [Statement] {
    let objects = versions.map { ["key": $0.key, "version": $0.value] as [String: any Sendable] }
    let json = (try? JSONSerialization.data(withJSONObject: objects)) ?? Data("[]".utf8)
    return [
      Statement("BEGIN"),
      Statement(
        """
        SELECT set_config('synchronous_commit', 'off', true),
          pg_notify($1, version || ' ' || key)
        FROM jsonb_to_recordset($2::jsonb) AS written(key text, version bigint)
        """,
        [channel, String(decoding: json, as: UTF8.self)]
      ),
      Statement("COMMIT"),
    ]
  }

  /// `$1`: the key; `$2`: the JSON.
  var upsert: String {
    """
    INSERT INTO \(quoted) (key, value) VALUES ($1, $2::jsonb)
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value RETURNING version
    """
  }

  /// Like ``upsert``, keeping the row's current value under `<key>.corrupt-<UTC timestamp>`.
  var upsertKeepingAside: String {
    """
    WITH kept AS (
      INSERT INTO \(quoted) (key, value)
      SELECT key || '.corrupt-'
        || to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        value
      FROM \(quoted) WHERE key = $1
      ON CONFLICT (key) DO NOTHING
    )
    \(upsert)
    """
  }

  /// `$1`: the key; `$2`: the JSON. Returns a row only if it inserted one.
  var insertIfMissing: String {
    """
    INSERT INTO \(quoted) (key, value) VALUES ($1, $2::jsonb)
    ON CONFLICT (key) DO NOTHING RETURNING version
    """
  }

  /// `$1`: the key.
  var selectForUpdate: String { select + " FOR UPDATE" }

  /// Draws the version that the transaction's update will write, once the row is locked:
  /// notifications of it can then be known as the transaction's own before it commits.
  var drawVersion: String {
    "SELECT set_config('sharing.version', nextval('\(sequence)')::text, true)"
  }

  /// `$1`: the key; `$2`: the JSON.
  var update: String {
    "UPDATE \(quoted) SET value = $2::jsonb WHERE key = $1 RETURNING version"
  }
}
