import Logging
import PostgresNIO

extension PostgresBackend {
    /// Applies the migrations not yet recorded in `schema_migrations`, all in one
    /// transaction, under a lock every instance takes. A migration that locks a table other
    /// instances write (v25) can deadlock with one of their transactions or wait past its
    /// `lock_timeout`: PostgreSQL then ends it (40P01, 55P03), and the whole runs again, up to
    /// three times, within `timeout` in all.
    func migrate(timeout: Duration) async throws {
        let logger = self.logger
        // Said once committed: a run PostgreSQL ended applied nothing.
        let applied = try await transaction(runningAgainOn: ["40P01", "55P03"], pause: .milliseconds(200), timeout: timeout) {
            connection in
            // One instance at a time per schema; released at commit.
            try await connection.rows(
                "SELECT pg_advisory_xact_lock(hashtextextended(\(PostgresMigrations.lockName) || current_schema(), 0))",
                logger)
            try await connection.rows(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    name text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger)
            var done = Set<String>()
            for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger)
                .decode(String.self)
            {
                done.insert(name)
            }
            var applied: [String] = []
            for migration in PostgresMigrations.all where !done.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.rows(PostgresQuery(unsafeSQL: statement), logger)
                }
                try await connection.rows("INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger)
                applied.append(migration.name)
            }
            return applied
        }
        for name in applied { logger.info("Applied database migration", metadata: ["migration": "\(name)"]) }
    }
}
