import Foundation
import Testing

@testable import AuthCore

/// The spend budget's cost read a minute at a time (`send_minutes`, migration v26) against the
/// sends' own sum, on every backend.
@Suite("The spend budget's windows, on every backend")
struct BudgetStoreTests {
    /// What the budget read says the sends in (since, until] cost.
    func cost(_ database: TestDatabase, since: Double, until: Double, reaching: Int = 1_000_000) async throws
        -> SendCount
    {
        let answers = try await database.auth.read([.cost(AllSends(since: since, reaching: reaching, until: until))])
        guard case .cost(let found) = answers.first else { throw CostNotRead() }
        return found
    }

    struct CostNotRead: Error {}

    /// What the sends in (since, until] cost, added up one by one.
    func summed(_ database: TestDatabase, since: Double, until: Double) async throws -> Int {
        try await database.integer(
            """
            SELECT CAST(coalesce(sum(cost), 0) AS BIGINT) FROM code_sends
            WHERE sent_at > \(since.description)\(until.isFinite ? " AND sent_at <= \(until.description)" : "")
            """) ?? -1
    }

    @Test(
        "the cost of every window, edges on, before and after sends, within one minute or many, equals the sends' own sum after every kind of write",
        arguments: Backend.all)
    func windowsEqualTheSends(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            // A minute's start, and sends on, just before and just after minute boundaries (a
            // hair before a minute's end is in that minute on both databases), calls among them.
            let base = 29_333_337.0 * 60
            let offsets = [0, 0.5, 59.999_99, 60, 61, 119.75, 120, 125, 180, 600, 3599, 3600, 3601, 7300]
            for (index, offset) in offsets.enumerated() {
                let cost = index % 4 == 1 ? 2 : index == 6 ? 5 : 1
                try await database.execute(
                    """
                    INSERT INTO code_sends (phone, client, sent_at, channel, cost)
                    VALUES ('+1530555\(String(format: "%04d", index))', '10.0.0.\(index)', \((base + offset).description),
                            '\(cost == 1 ? "sms" : "voice")', \(cost))
                    """)
            }
            // Windows starting and ending on a send, beside one, on a minute's edge, and past all.
            var edges = [-1.0, 0, 0.25, 30, 59.999_99, 59.999_995, 60, 60.5, 119.75, 120, 150, 3599, 3600, 3601, 7300, 7400]
            edges = edges.map { base + $0 }
            var step = 0
            func check(_ what: String) async throws {
                step += 1
                for since in edges {
                    for until in edges + [.infinity] where until >= since {
                        let read = try await cost(database, since: since, until: until)
                        let sum = try await summed(database, since: since, until: until)
                        #expect(read.count == sum, "(\(since - base), \(until - base)] after \(what) (step \(step))")
                    }
                }
            }
            try await check("the sends")
            try await database.execute("UPDATE code_sends SET cost = 3 WHERE phone LIKE '%0003'")
            try await database.execute("UPDATE code_sends SET sent_at = sent_at + 59.5 WHERE phone LIKE '%0004'")
            try await database.execute("UPDATE code_sends SET status = 'delivered', verified_at = sent_at")
            try await check("a cost, a time and deliveries changed")
            try await database.execute("DELETE FROM code_sends WHERE phone LIKE '%0002' OR phone LIKE '%0010'")
            try await check("sends taken back")
            try await database.execute("DELETE FROM code_sends WHERE sent_at < \((base + 120).description)")
            try await check("pruning")
            #expect(
                try await database.integer(
                    "SELECT count(*) FROM send_minutes WHERE minute < \(Int64(base / 60) + 2)") == 0)
        }
    }

    @Test("a full window says when it frees, from the send at which its cost reaches the budget", arguments: Backend.all)
    func fullWindow(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let base = 29_333_337.0 * 60
            for (index, offset) in [10.0, 70, 130, 190].enumerated() {
                try await database.execute(
                    """
                    INSERT INTO code_sends (phone, client, sent_at, channel, cost)
                    VALUES ('+1530555010\(index)', '10.0.0.\(index)', \((base + offset).description), 'sms', 1)
                    """)
            }
            let open = try await cost(database, since: base, until: base + 3600, reaching: 5)
            #expect(open == SendCount(count: 4, reachedAt: nil))
            let full = try await cost(database, since: base, until: base + 3600, reaching: 3)
            #expect(full == SendCount(count: 4, reachedAt: base + 70))
            // The send leaving the window frees it.
            let later = try await cost(database, since: base + 70, until: base + 3600, reaching: 3)
            #expect(later == SendCount(count: 2, reachedAt: nil))
        }
    }

    @Test(
        "a window far ahead (a clock set forward by a century) or ending before it starts: the sends' own sum, never less",
        arguments: Backend.all)
    func farAndBackwards(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            for (index, time) in [1_764_331_200.0, 6e9, 6e9 + 30, 9e12].enumerated() {
                try await database.execute(
                    """
                    INSERT INTO code_sends (phone, client, sent_at, channel, cost)
                    VALUES ('+1530555020\(index)', '10.0.0.\(index)', \(time.description), 'sms', 1)
                    """)
            }
            for (since, until) in [(6e9 - 10, Double.infinity), (6e9 - 10, 6e9 + 60), (5e9, 1e13), (0, .infinity)] {
                let read = try await cost(database, since: since, until: until)
                #expect(read.count == (try await summed(database, since: since, until: until)), "(\(since), \(until)]")
            }
            #expect(try await cost(database, since: 6e9 + 60, until: 6e9).count == 0)
        }
    }
}
