import GRDB
import Testing

@testable import SQLiteStorage
@testable import StorageSQL

/// The spend budget's minutes on SQLite: the read goes through `send_minutes` and the time index
/// (no walk of the window's sends), and migration v26 fills the minutes from the sends already
/// there.
@Suite("The spend budget's minutes (SQLite)")
struct BudgetMinutesTests {
    @Test("the budget's cost reads the minutes by their key and the edges' sends through the time index, nothing by a scan")
    func plan() throws {
        let queue = try DatabaseQueue()
        _ = try SQLiteDatabase(writer: queue)
        let plan = try queue.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + AuthReads.costTotal.text(for: .sqlite),
                arguments: [1_764_331_200.0, 1_764_334_800.0, 29_405_520, 29_405_580, 1_764_331_199.0, 1_764_334_861.0]
            ).map { $0["detail"] as String? ?? "" }
        }
        // Each search bounded on both sides: a bound lost walks the table from one end.
        #expect(plan.contains { $0.contains("send_minutes USING PRIMARY KEY (minute>? AND minute<?)") }, "\(plan)")
        let sends = plan.filter { $0.contains("code_sends") }
        #expect(sends.count == 4, "\(plan)")
        #expect(
            sends.allSatisfy {
                ($0.contains("code_sends_by_time") || $0.contains("code_sends_costly_by_time"))
                    && $0.contains("(sent_at>? AND sent_at<?)")
            }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") && $0 != "SCAN CONSTANT ROW" }, "\(plan)")
    }

    @Test("migration v26 fills each minute with what its sends already there cost")
    func backfill() throws {
        let queue = try DatabaseQueue()
        try SQLiteMigrations.migrator.migrate(queue, upTo: "v25-hourly-counts")
        let base = 29_405_520.0 * 60
        try queue.write { db in
            for (index, (offset, cost)) in [(0.0, 1), (59.999, 2), (60, 1), (61, 5), (3600, 1)].enumerated() {
                try db.execute(
                    sql: "INSERT INTO code_sends (phone, client, sent_at, channel, cost) VALUES (?, ?, ?, ?, ?)",
                    arguments: ["+153055501\(index)0", "10.0.0.\(index)", base + offset, cost == 1 ? "sms" : "voice", cost])
            }
        }
        try SQLiteMigrations.migrator.migrate(queue)
        let minutes = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT minute, spent FROM send_minutes ORDER BY minute").map {
                [$0["minute"] as Int64, $0["spent"] as Int64]
            }
        }
        let first = Int64(base / 60)
        #expect(minutes == [[first, 3], [first + 1, 6], [first + 60, 1]])
    }
}
