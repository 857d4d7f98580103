extension PostgresMigrations {
    /// `send_hours` and `sign_in_hours` (migration v25), as SQLite's v25
    /// (`SQLiteMigrations.hourlyCounts`): per UTC hour (seconds since 1970 over 3,600, floored),
    /// the sends by channel and delivery status with how many were used and what they cost, and
    /// the sign-ins (`session.created` events) by method; kept equal to `GROUP BY` over the rows
    /// by triggers on every insert, delete and change of a counted column. The one difference is
    /// the dialect: a trigger runs a PL/pgSQL function.
    static let hourlyCounts = [
        """
        CREATE TABLE send_hours (
            hour bigint NOT NULL,
            channel text NOT NULL,
            status text NOT NULL,
            sends bigint NOT NULL CHECK (sends > 0),
            used bigint NOT NULL CHECK (used BETWEEN 0 AND sends),
            spent bigint NOT NULL CHECK (spent >= 0),
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
            IF TG_OP <> 'INSERT' THEN
                DELETE FROM send_hours
                WHERE hour = CAST(floor(OLD.sent_at / 3600) AS bigint) AND channel = OLD.channel
                    AND status = OLD.status AND sends = 1;
                UPDATE send_hours SET sends = sends - 1,
                    used = used - (CASE WHEN OLD.verified_at IS NULL THEN 0 ELSE 1 END), spent = spent - OLD.cost
                WHERE hour = CAST(floor(OLD.sent_at / 3600) AS bigint) AND channel = OLD.channel
                    AND status = OLD.status;
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
        """
        CREATE TRIGGER send_counted AFTER INSERT OR DELETE OR UPDATE OF sent_at, channel, status, verified_at, cost
        ON code_sends FOR EACH ROW EXECUTE FUNCTION send_hours_count()
        """,
        """
        CREATE TABLE sign_in_hours (
            hour bigint NOT NULL,
            method text NOT NULL,
            sign_ins bigint NOT NULL CHECK (sign_ins > 0),
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
                DELETE FROM sign_in_hours
                WHERE hour = CAST(floor(OLD.at / 3600) AS bigint) AND method = coalesce(OLD.detail, '')
                    AND sign_ins = 1;
                UPDATE sign_in_hours SET sign_ins = sign_ins - 1
                WHERE hour = CAST(floor(OLD.at / 3600) AS bigint) AND method = coalesce(OLD.detail, '');
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
        """
        CREATE TRIGGER sign_in_counted AFTER INSERT OR DELETE OR UPDATE OF type, detail, at
        ON events FOR EACH ROW EXECUTE FUNCTION sign_in_hours_count()
        """,
    ]
}
