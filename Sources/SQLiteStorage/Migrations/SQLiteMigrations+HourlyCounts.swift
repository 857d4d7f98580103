extension SQLiteMigrations {
    /// `send_hours` and `sign_in_hours` (migration v25): per UTC hour (seconds since 1970 over
    /// 3,600, floored; the times are after 1970, so the integer cast floors), the sends by channel
    /// and delivery status with how many were used and what they cost, and the sign-ins
    /// (`session.created` events) by method. Each is what `GROUP BY` over the rows gives, kept
    /// so by triggers on every insert, delete and change of a counted column; a row whose count
    /// reaches 0 goes. Filled from the rows there are when it runs (SQLite's one writer: none is
    /// written meanwhile). PostgreSQL's v25 is the same.
    ///
    /// No CHECK constraints: a count is derived, and must never refuse the send, the sign-in or
    /// the delivery report it counts. A change that stays in its row (a code used, a cost) is
    /// applied as one difference; one that moves a send takes it out (the row goes at 0) and
    /// puts it in its new row.
    static let hourlyCounts = """
        CREATE TABLE send_hours (
            hour INTEGER NOT NULL,
            channel TEXT NOT NULL,
            status TEXT NOT NULL,
            sends INTEGER NOT NULL,
            used INTEGER NOT NULL,
            spent INTEGER NOT NULL,
            PRIMARY KEY (hour, channel, status)
        ) WITHOUT ROWID;
        INSERT INTO send_hours (hour, channel, status, sends, used, spent)
            SELECT CAST(sent_at / 3600 AS INTEGER), channel, status, count(*), count(verified_at), sum(cost)
            FROM code_sends GROUP BY 1, 2, 3;
        CREATE TRIGGER send_counted AFTER INSERT ON code_sends BEGIN
            \(countSend("NEW"))
        END;
        CREATE TRIGGER send_uncounted AFTER DELETE ON code_sends BEGIN
            \(uncountSend("OLD"))
        END;
        CREATE TRIGGER send_recounted_in_place AFTER UPDATE OF sent_at, channel, status, verified_at, cost ON code_sends
        WHEN \(sendHour("OLD")) = \(sendHour("NEW")) AND OLD.channel = NEW.channel AND OLD.status = NEW.status BEGIN
            UPDATE send_hours
            SET used = used + (NEW.verified_at IS NOT NULL) - (OLD.verified_at IS NOT NULL), spent = spent + NEW.cost - OLD.cost
            WHERE \(sendKey("NEW"));
        END;
        CREATE TRIGGER send_recounted AFTER UPDATE OF sent_at, channel, status, verified_at, cost ON code_sends
        WHEN \(sendHour("OLD")) <> \(sendHour("NEW")) OR OLD.channel <> NEW.channel OR OLD.status <> NEW.status BEGIN
            \(uncountSend("OLD"))
            \(countSend("NEW"))
        END;

        CREATE TABLE sign_in_hours (
            hour INTEGER NOT NULL,
            method TEXT NOT NULL,
            sign_ins INTEGER NOT NULL,
            PRIMARY KEY (hour, method)
        ) WITHOUT ROWID;
        INSERT INTO sign_in_hours (hour, method, sign_ins)
            SELECT CAST(at / 3600 AS INTEGER), coalesce(detail, ''), count(*)
            FROM events WHERE type = 'session.created' GROUP BY 1, 2;
        CREATE TRIGGER sign_in_counted AFTER INSERT ON events WHEN NEW.type = 'session.created' BEGIN
            \(countSignIn("NEW"))
        END;
        CREATE TRIGGER sign_in_uncounted AFTER DELETE ON events WHEN OLD.type = 'session.created' BEGIN
            \(uncountSignIn("OLD"))
        END;
        CREATE TRIGGER sign_in_recounted AFTER UPDATE OF type, detail, at ON events
        WHEN OLD.type = 'session.created' OR NEW.type = 'session.created' BEGIN
            \(uncountSignIn("OLD"))
            \(countSignIn("NEW"))
        END;
        """

    private static func sendHour(_ row: String) -> String { "CAST(\(row).sent_at / 3600 AS INTEGER)" }

    private static func sendKey(_ row: String) -> String {
        "hour = \(sendHour(row)) AND channel = \(row).channel AND status = \(row).status"
    }

    /// One send (`row` is NEW or OLD) added to its hour's counts.
    private static func countSend(_ row: String) -> String {
        """
        INSERT INTO send_hours (hour, channel, status, sends, used, spent)
            VALUES (\(sendHour(row)), \(row).channel, \(row).status, 1, \(row).verified_at IS NOT NULL, \(row).cost)
            ON CONFLICT (hour, channel, status) DO UPDATE
            SET sends = sends + 1, used = used + excluded.used, spent = spent + excluded.spent;
        """
    }

    /// One send taken from its hour's counts: the row goes with its last send.
    private static func uncountSend(_ row: String) -> String {
        """
        UPDATE send_hours
        SET sends = sends - 1, used = used - (\(row).verified_at IS NOT NULL), spent = spent - \(row).cost
        WHERE \(sendKey(row));
        DELETE FROM send_hours WHERE \(sendKey(row)) AND sends = 0;
        """
    }

    /// A sign-in added to its hour's, if `row` is one (the update trigger runs for either side).
    private static func countSignIn(_ row: String) -> String {
        """
        INSERT INTO sign_in_hours (hour, method, sign_ins)
            SELECT CAST(\(row).at / 3600 AS INTEGER), coalesce(\(row).detail, ''), 1 WHERE \(row).type = 'session.created'
            ON CONFLICT (hour, method) DO UPDATE SET sign_ins = sign_ins + 1;
        """
    }

    private static func uncountSignIn(_ row: String) -> String {
        let key =
            "hour = CAST(\(row).at / 3600 AS INTEGER) AND method = coalesce(\(row).detail, '') AND \(row).type = 'session.created'"
        return """
            UPDATE sign_in_hours SET sign_ins = sign_ins - 1 WHERE \(key);
            DELETE FROM sign_in_hours WHERE \(key) AND sign_ins = 0;
            """
    }
}
