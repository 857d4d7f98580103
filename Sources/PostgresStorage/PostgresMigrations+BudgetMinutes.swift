extension PostgresMigrations {
    /// `send_minutes` (migration v26), as SQLite's v26 (`SQLiteMigrations.budgetMinutes`): what
    /// the sends of each minute cost (seconds since 1970 over 60, floored), for the spend budget's
    /// sum, kept equal to `GROUP BY` over `code_sends` by a trigger on every insert, delete and
    /// change of a send's time or cost. As with `send_hours` (v25): filled under a lock that holds
    /// other instances' sends until the trigger exists (waited for 5 s at most; `migrate` runs it
    /// again), found through the connection's `search_path`, and each change locks the minute it
    /// counts in until its transaction ends, changing the row first and deleting it at 0 after.
    /// Sends are written under the one send lock, so they queue there, not on the minute. The
    /// triggers are named to run after v25's (PostgreSQL runs a row's triggers in the order of
    /// their names): every change takes its hour before its minute, so two changes to one minute
    /// never wait on each other in opposite orders (named `send_minute_…`, a delete and a change
    /// of cost in one minute deadlocked in `GlanceStoreTests.concurrentChanges`).
    static let budgetMinutes = [
        "SET LOCAL lock_timeout = '5s'",
        "LOCK TABLE code_sends IN SHARE ROW EXCLUSIVE MODE",
        "SET LOCAL lock_timeout TO DEFAULT",
        """
        CREATE TABLE send_minutes (
            minute bigint PRIMARY KEY,
            spent bigint NOT NULL
        )
        """,
        """
        INSERT INTO send_minutes (minute, spent)
            SELECT CAST(floor(sent_at / 60) AS bigint), sum(cost) FROM code_sends GROUP BY 1
        """,
        """
        CREATE FUNCTION send_minutes_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                UPDATE send_minutes SET spent = spent - OLD.cost
                WHERE minute = CAST(floor(OLD.sent_at / 60) AS bigint);
                DELETE FROM send_minutes
                WHERE minute = CAST(floor(OLD.sent_at / 60) AS bigint) AND spent <= 0;
            END IF;
            IF TG_OP <> 'DELETE' THEN
                INSERT INTO send_minutes AS counted (minute, spent)
                VALUES (CAST(floor(NEW.sent_at / 60) AS bigint), NEW.cost)
                ON CONFLICT (minute) DO UPDATE SET spent = counted.spent + excluded.spent;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER spend_minute_counted AFTER INSERT OR DELETE ON code_sends
        FOR EACH ROW EXECUTE FUNCTION send_minutes_count()
        """,
        """
        CREATE TRIGGER spend_minute_recounted AFTER UPDATE OF sent_at, cost ON code_sends
        FOR EACH ROW WHEN (OLD.sent_at IS DISTINCT FROM NEW.sent_at OR OLD.cost IS DISTINCT FROM NEW.cost)
        EXECUTE FUNCTION send_minutes_count()
        """,
    ]
}
