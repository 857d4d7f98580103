import ConsoleCore
import Foundation
import Testing

@testable import AuthCore

/// The glance's counts on every backend: hours floored the same on both, statuses, use, cost,
/// sign-ins by method, and the breaker's window.
@Suite("The console's glance, on every backend")
struct GlanceStoreTests {
    @Test("sends by hour, channel and status; sign-ins by method; exchanges with enough settled codes", arguments: Backend.all)
    func counts(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let start = f.clock.now.timeIntervalSince1970
            // Three sign-ins an hour and a half apart: each code in its hour, used.
            for _ in 0..<3 {
                let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
                f.clock.advance(by: 1)
                _ = try await f.service.verify(session: pending.session, codeInput: f.sms.lastCode!)
                f.clock.advance(by: 5400)
            }
            // A code nobody used, to another exchange.
            _ = try await f.service.requestCode(phoneInput: "4155550100", session: nil)
            let now = f.clock.now.timeIntervalSince1970
            // From the hour before the first send's.
            let since = (start / 3600).rounded(.down) * 3600 - 3600
            let counts = try await database.console.glance(since: since, breakerSince: start - 1, settledBy: now, minCodes: 1)
            let hours = counts.sends.map(\.hour).sorted()
            let sentAt = [start, start + 5401, start + 10_802, start + 16_203]
            #expect(hours == sentAt.map { Int(($0 - since) / 3600) })
            #expect(counts.sends.reduce(0) { $0 + $1.count } == 4)
            #expect(counts.sends.reduce(0) { $0 + $1.used } == 3)
            #expect(counts.sends.reduce(0) { $0 + $1.spent } == 4)
            #expect(counts.sends.allSatisfy { $0.channel == "sms" })
            #expect(counts.signIns.map(\.method) == ["text"] && counts.signIns.map(\.count) == [3])
            #expect(counts.exchanges.sorted { $0.exchange < $1.exchange }.map(\.exchange) == ["+1415555", "+1530555"])
            #expect(counts.exchanges.first { $0.exchange == "+1530555" }.map { ($0.sent, $0.used) } ?? (0, 0) == (3, 3))
            let fewer = try await database.console.glance(since: since, breakerSince: start - 1, settledBy: now, minCodes: 2)
            #expect(fewer.exchanges.map(\.exchange) == ["+1530555"])
            // Hours after the glance's 48 (as after the clock was set back) are not shown.
            let earlier = try await database.console.glance(
                since: since - Double(Glance.hours) * 3600, breakerSince: start - 1, settledBy: now, minCodes: 1)
            #expect(earlier.sends.isEmpty && earlier.signIns.isEmpty)
        }
    }

    /// Rows of `send_hours` and `sign_in_hours` that differ from grouping the rows they count,
    /// either way (0 when the triggers kept them equal): the grouping the glance did before v25.
    func differences(_ database: TestDatabase, _ backend: Backend) async throws -> (sends: Int, signIns: Int) {
        func hour(_ column: String) -> String {
            backend == .sqlite ? "CAST(\(column) / 3600 AS INTEGER)" : "CAST(floor(\(column) / 3600) AS bigint)"
        }
        func both(_ kept: String, _ grouped: String) -> String {
            """
            SELECT count(*) FROM (
                SELECT * FROM (\(kept) EXCEPT \(grouped)) AS extra
                UNION ALL SELECT * FROM (\(grouped) EXCEPT \(kept)) AS missing
            ) AS differing
            """
        }
        let sends = both(
            "SELECT hour, channel, status, sends, used, spent FROM send_hours",
            """
            SELECT \(hour("sent_at")), channel, status, count(*), count(verified_at), sum(cost)
            FROM code_sends GROUP BY 1, 2, 3
            """)
        let signIns = both(
            "SELECT hour, method, sign_ins FROM sign_in_hours",
            """
            SELECT \(hour("at")), coalesce(detail, ''), count(*) FROM events
            WHERE type = 'session.created' GROUP BY 1, 2
            """)
        return (try await database.integer(sends) ?? -1, try await database.integer(signIns) ?? -1)
    }

    @Test(
        "the hourly counts equal the rows' grouping after every kind of write: sends, deliveries, uses, costs, deletions, pruning",
        arguments: Backend.all)
    func hourlyCountsFollowTheRows(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            // An hour's start, and sends around two of its boundaries (7,199.75 s floors to the
            // hour before on both databases; PostgreSQL's integer cast alone would round it up).
            let base = 497_222.0 * 3600
            var step = 0
            func check(_ what: String) async throws {
                step += 1
                let found = try await differences(database, backend)
                #expect(found.sends == 0 && found.signIns == 0, "after \(what) (step \(step))")
            }
            for (index, offset) in [0, 1, 3599.5, 3600, 7199.75, 7200, 7201].enumerated() {
                let channel = index == 3 ? "voice" : "sms"
                let cost = index == 3 ? 4 : 1
                try await insertSend(
                    database, phone: "+1530555012\(index)", at: base + offset, channel: channel, cost: cost)
            }
            try await check("sends")
            #expect(try await database.count("send_hours") == 4)  // hours 0, 1 (sms and voice), 2
            try await database.execute("UPDATE code_sends SET status = 'queued' WHERE phone LIKE '%0120' OR phone LIKE '%0124'")
            try await database.execute("UPDATE code_sends SET status = 'delivered' WHERE phone LIKE '%0120'")
            try await database.execute("UPDATE code_sends SET status = 'failed' WHERE phone LIKE '%0123'")
            try await check("deliveries")
            try await database.execute("UPDATE code_sends SET verified_at = \(base + 10) WHERE phone LIKE '%0120' OR phone LIKE '%0125'")
            try await database.execute("UPDATE code_sends SET cost = 2 WHERE phone LIKE '%0126'")
            try await check("uses and a cost")
            // A column the counts do not read: nothing moves.
            try await database.execute("UPDATE code_sends SET phone = '+14155550100', provider_id = 'SM1' WHERE phone LIKE '%0121'")
            try await database.execute("UPDATE code_sends SET sent_at = sent_at + 3600 WHERE phone LIKE '%0122'")
            try await check("a number kept as a digest, a send moved an hour")
            try await database.execute("DELETE FROM code_sends WHERE id = (SELECT max(id) FROM code_sends)")
            try await check("the newest send forgotten")
            try await database.execute("DELETE FROM code_sends WHERE sent_at <= \(base + 3600)")
            try await check("pruning")
            #expect(try await database.integer("SELECT count(*) FROM send_hours WHERE hour = 497222") == 0)

            for (index, detail) in ["text", "text", "passkey", nil, "call"].enumerated() {
                let value = detail.map { "'\($0)'" } ?? "NULL"
                try await database.execute(
                    "INSERT INTO events (at, type, detail) VALUES (\(base + Double(index) * 1800), 'session.created', \(value))")
            }
            try await database.execute("INSERT INTO events (at, type, detail) VALUES (\(base), 'code.sent', 'text')")
            try await check("sign-ins and another event")
            try await database.execute("UPDATE events SET detail = 'passkey' WHERE detail = 'call'")
            try await database.execute("UPDATE events SET type = 'session.ended' WHERE detail IS NULL")
            try await database.execute("UPDATE events SET type = 'session.created' WHERE type = 'code.sent'")
            try await check("events changed")
            try await database.execute("DELETE FROM events WHERE at < \(base + 1800)")
            try await check("events pruned")
            #expect(try await database.integer("SELECT CAST(sum(sign_ins) AS BIGINT) FROM sign_in_hours") == 3)
        }
    }

    @Test(
        "changes to one hour's counts at once (deliveries, uses, a cost, deletions, on several connections) are all taken and leave the counts right",
        arguments: Backend.all)
    func concurrentChanges(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let base = 497_300.0 * 3600
            // 48 hours of two sends each, both in one (hour, sms, sent) row per hour.
            let hours = 48
            for hour in 0..<hours {
                for send in 0..<2 {
                    try await insertSend(
                        database, phone: "+1530555\(String(format: "%02d%02d", hour, send))",
                        at: base + Double(hour) * 3600 + Double(send), status: "sent")
                }
            }
            // An hour's two sends change its row at once: in even hours one leaves it (delivered)
            // while the other is used in place; in odd hours one is deleted while the other's
            // cost changes. (Taking a send out of a row whose count another change had just
            // lowered, not yet committed, failed the count's check when it was there.)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for hour in 0..<hours {
                    let phone = (0..<2).map { "'+1530555\(String(format: "%02d%02d", hour, $0))'" }
                    let changes =
                        hour % 2 == 0
                        ? [
                            "UPDATE code_sends SET status = 'delivered' WHERE phone = \(phone[0])",
                            "UPDATE code_sends SET verified_at = \(base) WHERE phone = \(phone[1])",
                        ]
                        : [
                            "DELETE FROM code_sends WHERE phone = \(phone[0])",
                            "UPDATE code_sends SET cost = 3 WHERE phone = \(phone[1])",
                        ]
                    for change in changes { group.addTask { try await database.execute(change) } }
                }
                try await group.waitForAll()
            }
            let found = try await differences(database, backend)
            #expect(found.sends == 0)
            // Even hours: (sent: 1 send, used, 1 spent) and (delivered: 1 send); odd hours: (sent:
            // 1 send, 3 spent).
            #expect(try await database.count("send_hours") == hours / 2 * 3)
            #expect(
                try await database.integer("SELECT CAST(sum(spent) AS BIGINT) FROM send_hours WHERE status = 'sent'")
                    == hours / 2 * 4)
        }
    }

    /// One row of `code_sends` written directly (the triggers under test see a plain INSERT).
    func insertSend(
        _ database: TestDatabase, phone: String, at sentAt: Double, channel: String = "sms", cost: Int = 1,
        status: String? = nil
    ) async throws {
        try await database.execute(
            """
            INSERT INTO code_sends (phone, client, sent_at, channel, cost, reference\(status == nil ? "" : ", status"))
            VALUES ('\(phone)', '127.0.0.1', \(sentAt), '\(channel)', \(cost), NULL\(status.map { ", '\($0)'" } ?? ""))
            """)
    }
}
