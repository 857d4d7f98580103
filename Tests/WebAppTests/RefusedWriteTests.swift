import Foundation
import GRDB
import NIOHTTP1
import Testing

@testable import WebApp

/// A write the database refuses is a clear answer, never a 500: a value its CHECK constraints
/// refuse is 422, a database that cannot take the write now (SQLite busy or full) is 503 with
/// `Retry-After`, as a PostgreSQL timeout is.
@Suite("Refused writes")
struct RefusedWriteTests {
    @Test("a value the schema refuses but the rules let through is 422 with a sentence on the page and in the API")
    func checkConstraint() async throws {
        try await withServer { server in
            // A CHECK the rules do not know, added behind the app's back.
            if server.usesPostgres {
                try await server.execute(
                    "ALTER TABLE wallet_profiles ADD CONSTRAINT no_bob CHECK (display_name <> 'Bob')")
            } else {
                try await server.execute(
                    """
                    DROP TABLE wallet_profiles;
                    CREATE TABLE wallet_profiles (
                        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 40)
                            CHECK (display_name <> 'Bob')
                    );
                    """)
            }
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            #expect(try await browser.post("/verify", form: [("code", server.lastCode())]).location == "/home")
            let page = try await browser.post("/home/name", form: [("name", "Bob"), ("key", "name-key-0123456789")])
            #expect(page.status == .unprocessableEntity)
            #expect(page.body.contains("That cannot be saved. Please check what you entered and try again."))
            #expect(!page.body.contains("no_bob"))

            let api = APIClient(server)
            let token = try await api.signIn(server, "+14155550199")
            let reply = try await api.call(.POST, "/name", json: ["name": "Bob"], token: token)
            #expect(reply.status == 422)
            #expect(reply.errorCode == "invalid_input")
            // Anything else still goes through.
            #expect(try await api.call(.POST, "/name", json: ["name": "Ann"], token: token).status == 200)
        }
    }

    @Test(
        "SQLite locked by another writer past the busy timeout: writes 503 with Retry-After on pages and API, Home still served, then it works"
    )
    func sqliteBusy() async throws {
        try await withServer(database: .sqlite, { $0.sqliteBusyTimeout = 0.2 }) { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            let person = Browser(baseURL: server.baseURL)
            _ = try await person.post("/login", form: [("phone", "4155550123")])
            #expect(try await person.post("/verify", form: [("code", server.lastCode(to: "+14155550123"))]).location == "/home")
            // A minute on, Home would refresh the session's idle timer: a write.
            server.clock.advance(by: 61)
            // Another process holds SQLite's write lock.
            let lock = try await SQLiteWriteLock.take(path: server.configuration.resolvedDatabasePath)
            // Home only reads: it is served, its refresh left for a later visit.
            #expect(try await person.get("/home").status == .ok)

            let browser = Browser(baseURL: server.baseURL)
            let page = try await browser.post("/login", form: [("phone", "5305550124")])
            #expect(page.status == .serviceUnavailable)
            #expect(page.header("Retry-After") == "5")
            #expect(page.body.contains("The service is briefly unavailable. Please try again in a moment."))
            let reply = try await api.call(.POST, "/accounts", token: token)
            #expect(reply.status == 503)
            #expect(reply.errorCode == "unavailable")
            #expect(reply.response.header("Retry-After") == "5")

            await lock.release()
            #expect(try await browser.post("/login", form: [("phone", "5305550124")]).location == "/verify")
            #expect(try await api.call(.POST, "/accounts", token: token).status == 201)
        }
    }
}

/// Another connection holding SQLite's write lock (`BEGIN IMMEDIATE`) until ``release()``: every
/// write of the app waits for it, up to its busy timeout.
struct SQLiteWriteLock {
    private let releaseSignal: DispatchSemaphore
    private let done: AsyncStream<Void>

    static func take(path: String) async throws -> SQLiteWriteLock {
        let database = try DatabaseQueue(path: path)
        let releaseSignal = DispatchSemaphore(value: 0)
        let (done, finished) = AsyncStream<Void>.makeStream()
        await withCheckedContinuation { (locked: CheckedContinuation<Void, Never>) in
            // A thread of its own: the transaction blocks it until release.
            Thread.detachNewThread {
                try? database.inTransaction(.immediate) { _ in
                    locked.resume()
                    releaseSignal.wait()
                    return .rollback
                }
                try? database.close()
                finished.finish()
            }
        }
        return SQLiteWriteLock(releaseSignal: releaseSignal, done: done)
    }

    /// Ends the transaction (and so the lock).
    func release() async {
        releaseSignal.signal()
        for await _ in done {}
    }
}
