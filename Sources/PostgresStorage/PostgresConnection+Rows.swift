import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` and returns all its rows (none for a statement without `RETURNING`).
    @discardableResult
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }

    /// Takes the transaction-scoped locks named `kind:value` (held until commit or rollback), in
    /// one round trip, in the order given. Advisory locks are shared by the whole database, so
    /// each name is prefixed with the schema: two apps (or test runs) in separate schemas of one
    /// database never wait for each other's locks.
    func lock(_ names: [String], _ logger: Logger) async throws {
        guard !names.isEmpty else { return }
        var query = PostgresQuery(unsafeSQL: "")
        var sql = "SELECT "
        for (index, name) in names.enumerated() {
            sql +=
                (index == 0 ? "" : ", ")
                + "pg_advisory_xact_lock(hashtextextended(current_schema() || $\(index + 1), 0))"
            try query.binds.append(":" + name, context: .default)
        }
        query.sql = sql
        try await rows(query, logger)
    }
}
