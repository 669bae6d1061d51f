extension TableSQL {
  /// The schema this release sets up.
  static let schema = 5

  /// Marks a trigger function of ``schema``, in its comment. A table of an older schema is
  /// brought up to date by ``setUp``, its rows kept.
  static let schemaVersion = "SharingPostgres schema \(schema)"

  /// Whether the table is ready: its triggers are there and its function is of ``schema`` or
  /// a later one, which a later release set up to serve the processes of this one while a
  /// table's processes are upgraded. `$1`: the table, quoted as it was created (unquoted,
  /// `to_regclass` would fold a name with capitals to lower case, and miss the table); `$2`:
  /// the function.
  var isSetUp: Statement {
    Statement(
      """
      SELECT (SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass($1)
          AND tgname IN ('sharing_stamp', 'sharing_notify')) = 2
        AND coalesce(substring(obj_description(to_regproc($2)::oid, 'pg_proc')
          FROM '^SharingPostgres schema ([0-9]+)$')::int >= \(Self.schema), false)
      """,
      [quoted, function]
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
      //     The sequence never goes back: a version it gave is never given again.
      Statement(
        """
        SELECT setval('\(sequence)', max(version)) FROM \(quoted)
        HAVING max(version) > (SELECT last_value FROM \(sequence))
        """
      ),
      Statement(triggerFunction),
      Statement("COMMENT ON FUNCTION \(function)() IS '\(Self.schemaVersion)'"),
      Statement(listenFunctionDefinition),
      Statement(heardFunctionDefinition),
      Statement(notifyFunctionDefinition),
      Statement(besideTheTable),
    ] + trigger("sharing_stamp", "BEFORE INSERT OR UPDATE")
      + trigger("sharing_notify", "AFTER INSERT OR UPDATE OR DELETE") + [Statement("COMMIT")]
  }

  /// Replaces the trigger `name`, which calls the trigger function `when` (`BEFORE INSERT`, …)
  /// a writer in plain SQL changes a row.
  private func trigger(_ name: String, _ when: String) -> [Statement] {
    [
      Statement("DROP TRIGGER IF EXISTS \(name) ON \(quoted)"),
      Statement(
        """
        CREATE TRIGGER \(name) \(when) ON \(quoted)
        FOR EACH ROW WHEN (\(Self.isPlainSQL)) EXECUTE FUNCTION \(function)()
        """
      ),
    ]
  }

  /// Whether the writer is not this package, which says so with `sharing.writer`.
  private static let isPlainSQL = "coalesce(current_setting('sharing.writer', true), '') = ''"

  /// Stamps a plain SQL write with a version and the time, and notifies its key's channel,
  /// in the writer's transaction.
  private var triggerFunction: String {
    """
    CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('\(channelPrefix)' || \(Self.bucket(of: "OLD.key")), '0 ' || OLD.key);
        RETURN OLD;
      ELSIF TG_WHEN = 'BEFORE' THEN
        NEW.version := nextval(
          format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME || '_versions')::regclass);
        NEW.updated_at := now();
        RETURN NEW;
      END IF;
      PERFORM pg_notify(
        '\(channelPrefix)' || \(Self.bucket(of: "NEW.key")), NEW.version || ' ' || NEW.key);
      RETURN NEW;
    END
    $body$
    """
  }

  /// Makes the listening connection that calls it listen to exactly the channels of
  /// `buckets`, and records them as its own in the table of listeners, forgetting listeners
  /// whose connection is gone. Returns the connection's process ID.
  ///
  /// It first takes, exclusive and in order, the locks of the buckets it records anew, which
  /// writes take shared (see ``heard(_:besides:)``): the writes in flight commit before it.
  private var listenFunctionDefinition: String {
    """
    CREATE OR REPLACE FUNCTION \(listenFunction)(buckets int[]) RETURNS int LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
    DECLARE
      wanted text[] := ARRAY(SELECT '\(channelPrefix)' || bucket FROM unnest(buckets) AS bucket);
      heard text[] := ARRAY(SELECT pg_listening_channels());
      channel text;
      lock_key int;
    BEGIN
      FOREACH lock_key IN ARRAY ARRAY(
        SELECT DISTINCT \(lockKey(of: "asked.bucket")) FROM unnest(buckets) AS asked(bucket)
        WHERE NOT EXISTS (SELECT FROM \(unqualifiedListeners) AS mine
          WHERE mine.pid = pg_backend_pid() AND mine.bucket = asked.bucket)
        ORDER BY 1)
      LOOP
        PERFORM pg_advisory_xact_lock(\(Self.lockClass), lock_key);
      END LOOP;
      FOREACH channel IN ARRAY heard LOOP
        IF starts_with(channel, '\(channelPrefix)') AND channel <> ALL (wanted) THEN
          EXECUTE format('UNLISTEN %I', channel);
        END IF;
      END LOOP;
      FOREACH channel IN ARRAY wanted LOOP
        IF channel <> ALL (heard) THEN
          EXECUTE format('LISTEN %I', channel);
        END IF;
      END LOOP;
      DELETE FROM \(unqualifiedListeners) AS listener
      WHERE (listener.pid = pg_backend_pid() AND listener.bucket <> ALL (buckets))
        OR NOT EXISTS (SELECT FROM pg_stat_activity AS backend WHERE backend.pid = listener.pid);
      INSERT INTO \(unqualifiedListeners) (bucket, pid)
      SELECT bucket, pg_backend_pid() FROM unnest(buckets) AS bucket
      ON CONFLICT DO NOTHING;
      RETURN pg_backend_pid();
    END
    $body$
    """
  }

  /// Takes the lock of a bucket, shared, then says whether a listener other than `listener`
  /// is registered for it, in a query of its own, whose snapshot is taken after the lock is
  /// granted. Writes of schema 4 called it; this schema's take the lock and query in
  /// statements of their own (see ``heard(_:besides:)``): kept for processes of the previous
  /// release while a table's processes are upgraded.
  private var heardFunctionDefinition: String {
    """
    CREATE OR REPLACE FUNCTION \(heardFunction)(written_bucket int, listener int)
    RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $body$
    DECLARE
      is_heard boolean;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(\(Self.lockClass), \(lockKey(of: "written_bucket")));
      SELECT EXISTS (SELECT FROM \(unqualifiedListeners) AS other
        WHERE other.bucket = written_bucket AND other.pid <> listener) INTO is_heard;
      RETURN is_heard;
    END
    $body$
    """
  }

  /// Notifies the listeners other than `listener` of the rows of `keys` (`at_once`), or
  /// only counts them; returns how many keys have listeners.
  private var notifyFunctionDefinition: String {
    """
    CREATE OR REPLACE FUNCTION \(notifyFunction)(keys text[], at_once boolean, listener int)
    RETURNS int LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
    DECLARE
      written record;
      heard int := 0;
    BEGIN
      FOR written IN
        SELECT stored.key, stored.version, \(Self.bucket(of: "stored.key")) AS bucket
        FROM \(unqualified) AS stored WHERE stored.key = ANY (keys)
      LOOP
        CONTINUE WHEN NOT EXISTS (
          SELECT FROM \(unqualifiedListeners) AS other
          WHERE other.bucket = written.bucket AND other.pid <> listener);
        heard := heard + 1;
        IF at_once THEN
          PERFORM set_config('synchronous_commit', 'off', true), pg_notify(
            '\(channelPrefix)' || written.bucket, written.version || ' ' || written.key);
        END IF;
      END LOOP;
      RETURN heard;
    END
    $body$
    """
  }

  /// Creates the table of listeners in the table's schema, and gives the functions that schema
  /// as their search path, so that they find both tables whatever the caller's is.
  private var besideTheTable: String {
    """
    DO $do$
    DECLARE
      schema text := (SELECT relnamespace::regnamespace::text FROM pg_class
        WHERE oid = '\(quoted)'::regclass);
    BEGIN
      EXECUTE format('CREATE TABLE IF NOT EXISTS %s.\(unqualifiedListeners) (
        bucket int NOT NULL, pid int NOT NULL, PRIMARY KEY (bucket, pid))', schema);
      EXECUTE format('GRANT SELECT ON %s.\(unqualifiedListeners) TO PUBLIC', schema);
      EXECUTE format('ALTER FUNCTION \(listenFunction)(int[]) SET search_path = %s, pg_temp',
        schema);
      EXECUTE format('ALTER FUNCTION \(heardFunction)(int, int) SET search_path = %s, pg_temp',
        schema);
      EXECUTE format(
        'ALTER FUNCTION \(notifyFunction)(text[], boolean, int) SET search_path = %s, pg_temp',
        schema);
    END
    $do$
    """
  }
}
