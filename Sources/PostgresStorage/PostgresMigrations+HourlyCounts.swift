extension PostgresMigrations {
    /// `send_hours` and `sign_in_hours` (migration v25), as SQLite's v25
    /// (`SQLiteMigrations.hourlyCounts`): per UTC hour (seconds since 1970 over 3,600, floored),
    /// the sends by channel and delivery status with how many were used and what they cost, and
    /// the sign-ins (`session.created` events) by method; kept equal to `GROUP BY` over the rows
    /// by triggers on every insert, delete and change of a counted column. The difference is the
    /// dialect (a trigger runs a PL/pgSQL function) and the other instances:
    ///
    /// - The tables are filled under a lock that holds other instances' writes to the counted
    ///   tables until the triggers exist (the migration is one transaction), so no row written
    ///   meanwhile goes uncounted. The lock is waited for 5 s at most, and taking it can deadlock
    ///   with an old instance's purge (which writes `events` before `code_sends`): either way
    ///   PostgreSQL ends the migration and `migrate` runs it again.
    /// - The functions find the tables through the connection's `search_path` (the schema the
    ///   app was given), not a schema named when they were made: a restore into another schema
    ///   keeps working.
    /// - Each change locks the one or two rows it counts in until its transaction ends. It
    ///   changes a row first and deletes it at 0 after (a row's count read before the change
    ///   could be another transaction's, not yet committed), and a change that stays in its row
    ///   is one difference. Two transactions that take two rows in opposite orders (a number's
    ///   change against a delivery report) can deadlock: `PostgresRunner` runs the loser again.
    /// - No CHECK constraints: a count must never refuse the write it counts.
    static let hourlyCounts = [
        "SET LOCAL lock_timeout = '5s'",
        "LOCK TABLE code_sends, events IN SHARE ROW EXCLUSIVE MODE",
        "SET LOCAL lock_timeout TO DEFAULT",
        """
        CREATE TABLE send_hours (
            hour bigint NOT NULL,
            channel text NOT NULL,
            status text NOT NULL,
            sends bigint NOT NULL,
            used bigint NOT NULL,
            spent bigint NOT NULL,
            PRIMARY KEY (hour, channel, status)
        )
        """,
        """
        INSERT INTO send_hours (hour, channel, status, sends, used, spent)
            SELECT CAST(floor(sent_at / 3600) AS bigint), channel, status, count(*), count(verified_at), sum(cost)
            FROM code_sends GROUP BY 1, 2, 3
        """,
        """
        CREATE FUNCTION send_hours_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' AND floor(OLD.sent_at / 3600) = floor(NEW.sent_at / 3600)
                AND OLD.channel = NEW.channel AND OLD.status = NEW.status THEN
                UPDATE send_hours
                SET used = used + (CASE WHEN NEW.verified_at IS NULL THEN 0 ELSE 1 END)
                        - (CASE WHEN OLD.verified_at IS NULL THEN 0 ELSE 1 END),
                    spent = spent + NEW.cost - OLD.cost
                WHERE \(sendKey("NEW"));
                RETURN NULL;
            END IF;
            IF TG_OP <> 'INSERT' THEN
                UPDATE send_hours
                SET sends = sends - 1, used = used - (CASE WHEN OLD.verified_at IS NULL THEN 0 ELSE 1 END),
                    spent = spent - OLD.cost
                WHERE \(sendKey("OLD"));
                DELETE FROM send_hours
                WHERE \(sendKey("OLD")) AND sends = 0;
            END IF;
            IF TG_OP <> 'DELETE' THEN
                INSERT INTO send_hours AS counted (hour, channel, status, sends, used, spent)
                VALUES (CAST(floor(NEW.sent_at / 3600) AS bigint), NEW.channel, NEW.status, 1,
                        CASE WHEN NEW.verified_at IS NULL THEN 0 ELSE 1 END, NEW.cost)
                ON CONFLICT (hour, channel, status) DO UPDATE
                SET sends = counted.sends + 1, used = counted.used + excluded.used,
                    spent = counted.spent + excluded.spent;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        "CREATE TRIGGER send_counted AFTER INSERT OR DELETE ON code_sends FOR EACH ROW EXECUTE FUNCTION send_hours_count()",
        """
        CREATE TRIGGER send_recounted AFTER UPDATE OF sent_at, channel, status, verified_at, cost ON code_sends
        FOR EACH ROW WHEN (OLD.sent_at IS DISTINCT FROM NEW.sent_at OR OLD.channel IS DISTINCT FROM NEW.channel
            OR OLD.status IS DISTINCT FROM NEW.status OR OLD.verified_at IS DISTINCT FROM NEW.verified_at
            OR OLD.cost IS DISTINCT FROM NEW.cost)
        EXECUTE FUNCTION send_hours_count()
        """,
        """
        CREATE TABLE sign_in_hours (
            hour bigint NOT NULL,
            method text NOT NULL,
            sign_ins bigint NOT NULL,
            PRIMARY KEY (hour, method)
        )
        """,
        """
        INSERT INTO sign_in_hours (hour, method, sign_ins)
            SELECT CAST(floor(at / 3600) AS bigint), coalesce(detail, ''), count(*)
            FROM events WHERE type = 'session.created' GROUP BY 1, 2
        """,
        """
        CREATE FUNCTION sign_in_hours_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' AND OLD.type = 'session.created' THEN
                UPDATE sign_in_hours SET sign_ins = sign_ins - 1
                WHERE \(signInKey("OLD"));
                DELETE FROM sign_in_hours
                WHERE \(signInKey("OLD")) AND sign_ins = 0;
            END IF;
            IF TG_OP <> 'DELETE' AND NEW.type = 'session.created' THEN
                INSERT INTO sign_in_hours AS counted (hour, method, sign_ins)
                VALUES (CAST(floor(NEW.at / 3600) AS bigint), coalesce(NEW.detail, ''), 1)
                ON CONFLICT (hour, method) DO UPDATE SET sign_ins = counted.sign_ins + 1;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        // Only sign-ins call the function: most events are not.
        """
        CREATE TRIGGER sign_in_counted AFTER INSERT ON events
        FOR EACH ROW WHEN (NEW.type = 'session.created') EXECUTE FUNCTION sign_in_hours_count()
        """,
        """
        CREATE TRIGGER sign_in_uncounted AFTER DELETE ON events
        FOR EACH ROW WHEN (OLD.type = 'session.created') EXECUTE FUNCTION sign_in_hours_count()
        """,
        """
        CREATE TRIGGER sign_in_recounted AFTER UPDATE OF type, detail, at ON events
        FOR EACH ROW WHEN (OLD.type = 'session.created' OR NEW.type = 'session.created')
        EXECUTE FUNCTION sign_in_hours_count()
        """,
    ]

    /// The `send_hours` row that a send, `OLD` or `NEW` in a trigger's function, counts in.
    private static func sendKey(_ row: String) -> String {
        "hour = CAST(floor(\(row).sent_at / 3600) AS bigint) AND channel = \(row).channel AND status = \(row).status"
    }

    /// The `sign_in_hours` row that a sign-in event, `OLD` or `NEW`, counts in.
    private static func signInKey(_ row: String) -> String {
        "hour = CAST(floor(\(row).at / 3600) AS bigint) AND method = coalesce(\(row).detail, '')"
    }
}
