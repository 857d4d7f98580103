extension SQLiteMigrations {
    /// `send_minutes` (migration v26): what the sends of each minute cost (seconds since 1970 over
    /// 60, floored; the integer cast floors times after 1970), the spend budget's sum read a
    /// minute at a time (`AuthReads.costTotal`) instead of a send at a time. Kept equal to
    /// `GROUP BY` over `code_sends` by triggers on every insert, delete and change of a send's
    /// time or cost, like `send_hours` (v25); a minute goes when its last send does (every send
    /// costs at least 1, so a cost of 0 is an empty minute). Filled from the sends there are when
    /// it runs (SQLite's one writer: none is written meanwhile). PostgreSQL's v26 is the same.
    static let budgetMinutes = """
        CREATE TABLE send_minutes (
            minute INTEGER PRIMARY KEY NOT NULL,
            spent INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO send_minutes (minute, spent)
            SELECT CAST(sent_at / 60 AS INTEGER), sum(cost) FROM code_sends GROUP BY 1;
        CREATE TRIGGER spend_minute_counted AFTER INSERT ON code_sends BEGIN
            \(count("NEW"))
        END;
        CREATE TRIGGER spend_minute_uncounted AFTER DELETE ON code_sends BEGIN
            \(uncount("OLD"))
        END;
        CREATE TRIGGER spend_minute_recounted AFTER UPDATE OF sent_at, cost ON code_sends
        WHEN OLD.sent_at <> NEW.sent_at OR OLD.cost <> NEW.cost BEGIN
            \(uncount("OLD"))
            \(count("NEW"))
        END;
        """

    private static func minute(_ row: String) -> String { "CAST(\(row).sent_at / 60 AS INTEGER)" }

    /// One send (`row` is NEW or OLD) added to its minute.
    private static func count(_ row: String) -> String {
        """
        INSERT INTO send_minutes (minute, spent) VALUES (\(minute(row)), \(row).cost)
            ON CONFLICT (minute) DO UPDATE SET spent = spent + excluded.spent;
        """
    }

    /// One send taken from its minute: the row goes with its last send.
    private static func uncount(_ row: String) -> String {
        """
        UPDATE send_minutes SET spent = spent - \(row).cost WHERE minute = \(minute(row));
        DELETE FROM send_minutes WHERE minute = \(minute(row)) AND spent <= 0;
        """
    }
}
