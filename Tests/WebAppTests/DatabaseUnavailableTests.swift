import Foundation
import Logging
import NIOHTTP1
import PostgresNIO
import TestSupport
import Testing

@testable import WebApp

/// A PostgreSQL server that stops answering (here: a table locked by another client) makes
/// requests fail fast with 503 and `Retry-After`, never hang, and the app recovers by itself.
@Suite("Database not answering", .enabled(if: TestPostgres.url != nil))
struct DatabaseUnavailableTests {
    @Test("a locked sessions table: pages and API answer 503 within the timeout, then work again")
    func lockedTable() async throws {
        try await withServer({ $0.postgres?.timeout = .seconds(3) }) { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            #expect(try await browser.post("/verify", form: [("code", server.lastCode())]).location == "/home")
            let api = APIClient(server)
            let token = try await api.signIn(server, "+15305550124")

            let schema = try #require(server.configuration.postgres?.schema)
            let lock = try await TableLock.take(schema: schema, table: "sessions")

            let page = try await browser.get("/home")
            #expect(page.status == .serviceUnavailable)
            #expect(page.header("Retry-After") == "5")
            #expect(page.body.contains("The service is briefly unavailable. Please try again in a moment."))
            let me = try await api.call(.GET, "/me", token: token)
            #expect(me.status == 503)
            #expect(me.errorCode == "unavailable")
            // Both answered while the lock is still held: bounded waits, not a hang until it goes.

            try await lock.release()
            #expect(try await browser.get("/home").status == .ok)
            #expect(try await api.call(.GET, "/me", token: token).status == 200)
        }
    }

    @Test("a write that runs out of time is rolled back: no code kept without its text")
    func timedOutWriteRollsBack() async throws {
        try await withServer({ $0.postgres?.timeout = .seconds(3) }) { server in
            let schema = try #require(server.configuration.postgres?.schema)
            let lock = try await TableLock.take(schema: schema, table: "sessions")

            // POST /login stores the code, then waits on the locked sessions table.
            let browser = Browser(baseURL: server.baseURL)
            let sent = try await browser.post("/login", form: [("phone", "5305550123")])
            #expect(sent.status == .serviceUnavailable)
            try await lock.release()
            // The blocked statement finishes once the lock goes; its transaction must then end
            // without committing. Wait (at most 5 s) until no transaction holds a lock in the schema.
            for _ in 0..<50 {
                let held = try await TestPostgres.admin!.query(
                    """
                    SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(schema)
                    """, logger: TestPostgres.logger
                ).collect()
                if try held[0].decode(Int.self) == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let counts = try await server.tableCounts(["verifications", "code_sends", "sessions"])
            #expect(counts == ["verifications": 0, "code_sends": 0, "sessions": 0])
            #expect(try server.outbox().isEmpty)
            // And the person can simply try again.
            #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }
}

/// Another client holding `ACCESS EXCLUSIVE` on one table in an open transaction, until
/// ``release()``: every statement of the app that touches the table waits.
struct TableLock {
    private let releaseSignal: AsyncStream<Void>.Continuation
    private let holder: Task<Void, any Error>

    static func take(schema: String, table: String) async throws -> TableLock {
        let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await TestPostgres.admin!.withTransaction(logger: TestPostgres.logger) { connection in
                try await connection.query(
                    "LOCK TABLE \(unescaped: schema).\(unescaped: table) IN ACCESS EXCLUSIVE MODE",
                    logger: TestPostgres.logger
                ).collect()
                lockedSignal.yield()
                for await _ in release { break }
            }
        }
        for await _ in locked { break }
        return TableLock(releaseSignal: releaseSignal, holder: holder)
    }

    /// Ends the transaction (and so the lock).
    func release() async throws {
        releaseSignal.yield()
        try await holder.value
    }
}
