import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import StorageSQL
import Testing
import TestSupport

@testable import PostgresStorage

/// A transaction PostgreSQL ends to break a deadlock runs again (`PostgresRunner`): two
/// transactions that take the same two rows in opposite orders (as a number's change and a
/// delivery report do with the glance's hourly counts) both commit.
@Suite("PostgreSQL: a transaction ended by a deadlock runs again", .enabled(if: TestPostgres.url != nil))
struct RunAgainTests {
    @Test("two transactions taking two rows in opposite orders both commit, the one PostgreSQL ended on its second run")
    func deadlockRunsAgain() async throws {
        let configuration = try await TestPostgres.makeSchema()
        let (backend, stop) = try await PostgresBackend.running(configuration, logger: Logger(label: "pg"))
        do {
            try await backend.rows("CREATE TABLE pair (id integer PRIMARY KEY, n integer NOT NULL)")
            try await backend.rows("INSERT INTO pair VALUES (1, 0), (2, 0)")
            let runner = PostgresRunner(backend)
            let runs = NIOLockedValueBox(0)
            // The first takes row 1 and sleeps 2 s before asking for row 2; the second starts
            // once the first is asleep, takes row 2 and asks for row 1 (held): when the first
            // wakes and asks for row 2, each waits for the other, and PostgreSQL ends one.
            @Sendable func take(_ first: Int, then second: Int, sleeping: Bool) async throws {
                _ = try await runner.transaction {
                    runs.withLockedValue { $0 += 1 }
                    return Step<Int>.execute(
                        [Statement(SQL("UPDATE pair SET n = n + 1 WHERE id = $1"), first)]
                            + (sleeping ? [Statement(SQL("SELECT pg_sleep(2) AS run_again_barrier"))] : [])
                            + [Statement(SQL("UPDATE pair SET n = n + 1 WHERE id = $1"), second)])
                }
            }
            async let one: Void = take(1, then: 2, sleeping: true)
            // Waits for the first to be asleep (holding row 1), for 30 s at most.
            let asleep = """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND state = 'active' AND query LIKE '%run_again_barrier%'
                    AND pid <> pg_backend_pid()
                """
            var waited = 0
            while try await backend.rows(PostgresQuery(unsafeSQL: asleep)).first?.decode(Int.self) == 0, waited < 300 {
                try await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            async let two: Void = take(2, then: 1, sleeping: false)
            _ = try await (one, two)
            let counts = try await backend.rows("SELECT n FROM pair ORDER BY id").map { try $0.decode(Int.self) }
            #expect(counts == [2, 2])
            #expect(runs.withLockedValue { $0 } == 3)
        } catch {
            await stop()
            await TestPostgres.dropSchema(configuration.schema!)
            throw error
        }
        await stop()
        await TestPostgres.dropSchema(configuration.schema!)
    }
}
