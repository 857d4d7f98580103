import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` and returns all its rows (none for a statement without `RETURNING`).
    @discardableResult
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }

    /// Takes the transaction-scoped lock named `kind:value` (held until commit or rollback).
    func lock(_ kind: String, _ value: String, _ logger: Logger) async throws {
        try await rows("SELECT pg_advisory_xact_lock(hashtextextended(\(kind + ":" + value), 0))", logger)
    }
}
