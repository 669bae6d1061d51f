/// The SQL of one table of keys: its schema, its trigger, and the statements the keys run.
///
/// The trigger stamps every insert and update with the next version and the time, and
/// notifies the table's channel with `<version> <key>` (`0 <key>` for a delete), so that
/// writers in plain SQL are played back too.
struct TableSQL: Sendable {
  /// The table, as given: `name` or `schema.name`.
  let table: String
  private let quoted: String
  private let function: String

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
    self.quoted = parts.map { "\"\($0)\"" }.joined(separator: ".")
    var functionParts = parts
    functionParts[parts.count - 1] += "_changed"
    self.function = functionParts.map { "\"\($0)\"" }.joined(separator: ".")
  }

  /// The channel the trigger notifies.
  var channel: String { table }

  var listen: String { "LISTEN \"\(channel)\"" }

  /// Counts the triggers already set up (2 when the table is ready). `$1`: the table.
  var countTriggers: String {
    """
    SELECT count(*) FROM pg_trigger
    WHERE tgrelid = to_regclass($1) AND tgname IN ('sharing_stamp', 'sharing_notify')
    """
  }

  /// Creates what is missing, one statement each, inside a transaction holding an advisory
  /// lock so that processes starting together do not collide.
  var setUp: [String] {
    [
      "SELECT pg_advisory_xact_lock(hashtext('sharing ' || $1))",
      """
      CREATE TABLE IF NOT EXISTS \(quoted) (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        version bigint NOT NULL DEFAULT 1,
        updated_at timestamptz NOT NULL DEFAULT now()
      )
      """,
      """
      CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $body$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('\(channel)', '0 ' || OLD.key);
          RETURN OLD;
        ELSIF TG_WHEN = 'BEFORE' THEN
          NEW.version := CASE WHEN TG_OP = 'UPDATE' THEN OLD.version + 1 ELSE 1 END;
          NEW.updated_at := now();
          RETURN NEW;
        END IF;
        PERFORM pg_notify('\(channel)', NEW.version || ' ' || NEW.key);
        RETURN NEW;
      END
      $body$
      """,
      "DROP TRIGGER IF EXISTS sharing_stamp ON \(quoted)",
      """
      CREATE TRIGGER sharing_stamp BEFORE INSERT OR UPDATE ON \(quoted)
      FOR EACH ROW EXECUTE FUNCTION \(function)()
      """,
      "DROP TRIGGER IF EXISTS sharing_notify ON \(quoted)",
      """
      CREATE TRIGGER sharing_notify AFTER INSERT OR UPDATE OR DELETE ON \(quoted)
      FOR EACH ROW EXECUTE FUNCTION \(function)()
      """,
    ]
  }

  /// `$1`: the key.
  var select: String { "SELECT value::text, version FROM \(quoted) WHERE key = $1" }

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

  /// `$1`: the key; `$2`: the JSON.
  var update: String {
    "UPDATE \(quoted) SET value = $2::jsonb WHERE key = $1 RETURNING version"
  }
}
