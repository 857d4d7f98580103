import Encodings
import Foundation
import Logging
import PostgresNIO
import PostgresStorage

/// The throwaway PostgreSQL server `scripts/test` started (`TEST_DATABASE_URL`), if any: each
/// test gets a schema of its own in it (made here, dropped when the test ends), so tests run in
/// parallel and leave nothing behind.
public enum TestPostgres {
    public static let url = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// A pool for creating and dropping schemas and for counting rows, running for the whole
    /// test process.
    public static let admin: PostgresClient? = {
        guard let url else { return nil }
        let configuration = try! PostgresBackend.Configuration(url: url)
        let client = PostgresClient(
            configuration: configuration.clientConfiguration, backgroundLogger: Logger(label: "test-postgres"))
        Task.detached { await client.run() }
        return client
    }()

    public static let logger = Logger(label: "test-postgres")

    /// A new empty schema; the app's migrations fill it.
    public static func makeSchema() async throws -> PostgresBackend.Configuration {
        var configuration = try PostgresBackend.Configuration(url: url!)
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await admin!.query("CREATE SCHEMA \(unescaped: schema)", logger: logger).collect()
        configuration.schema = schema
        configuration.maxConnections = 8
        return configuration
    }

    public static func dropSchema(_ schema: String) async {
        _ = try? await admin!.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: logger).collect()
    }

    /// Runs `sql` with `schema` first on the search path.
    public static func execute(_ sql: String, in schema: String) async throws {
        try await admin!.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SET LOCAL search_path TO \(unescaped: schema)", logger: logger)
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// The rows `sql` returns in `schema`, each column as text (`NULL` as an empty string).
    public static func rows(_ sql: String, in schema: String) async throws -> [[String]] {
        try await admin!.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SET LOCAL search_path TO \(unescaped: schema)", logger: logger)
            var found: [[String]] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
                found.append(
                    row.map { cell in
                        guard cell.bytes != nil else { return "" }
                        switch cell.dataType {
                        case .int2, .int4, .int8: return (try? cell.decode(Int.self)).map(String.init) ?? "?"
                        case .float4, .float8: return (try? cell.decode(Double.self)).map { String($0) } ?? "?"
                        case .bytea:
                            return (try? cell.decode([UInt8].self))?.hexString ?? "?"
                        default: return (try? cell.decode(String.self)) ?? "?"
                        }
                    })
            }
            return found
        }
    }

    /// The number of rows in `table` of `schema`.
    public static func count(_ table: String, in schema: String) async throws -> Int {
        let rows = try await admin!.query(
            "SELECT count(*) FROM \(unescaped: schema).\(unescaped: table)", logger: logger
        ).collect()
        return try rows[0].decode(Int.self)
    }
}

extension PostgresBackend {
    /// A backend on `configuration` whose pool runs (as the app's `ServiceGroup` would run it)
    /// and whose schema is migrated; `stop` closes it and waits for the pool to end.
    public static func running(_ configuration: Configuration, logger: Logger = TestPostgres.logger) async throws
        -> (backend: PostgresBackend, stop: @Sendable () async -> Void)
    {
        let backend = PostgresBackend(configuration: configuration, logger: logger)
        let pool = Task { await backend.run() }
        // Outside a ServiceGroup nothing triggers a graceful shutdown: cancelling is the way out.
        let stop: @Sendable () async -> Void = {
            backend.close()
            pool.cancel()
            await pool.value
        }
        do {
            try await backend.migrate()
        } catch {
            await stop()
            throw error
        }
        return (backend, stop)
    }
}
