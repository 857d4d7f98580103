import AuthCore
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import WalletCore

/// Where sign-ins and wallets are kept: the SQLite file (one instance, the default) or a
/// PostgreSQL server shared by several instances. The rest of the app sees only the stores.
struct Storage: Sendable {
    let auth: any AuthStore
    let wallet: any WalletStore
    /// Throws unless the database answers now (for `/readyz`).
    let ping: @Sendable () async throws -> Void
    /// Closes the database; called once at shutdown, after the last request.
    let close: @Sendable () async throws -> Void

    /// Opens the configured database and brings its schema up to date (migrations run before any
    /// request is served).
    static func open(_ configuration: AppConfiguration, logger: Logger) async throws -> Storage {
        if let postgres = configuration.postgres {
            let database = try await PostgresBackend(configuration: postgres, logger: logger)
            logger.info("Using PostgreSQL", metadata: ["database": "\(postgres.redacted)"])
            return Storage(
                auth: PostgresAuthStore(database: database),
                wallet: PostgresWalletStore(database: database), ping: { try await database.ping() },
                close: { await database.close() })
        }
        let database = try SQLiteDatabase(
            path: configuration.resolvedDatabasePath, onStatement: configuration.onDatabaseStatement)
        return Storage(
            auth: SQLiteAuthStore(database: database), wallet: SQLiteWalletStore(database: database),
            ping: { try await database.ping() }, close: { try database.close() })
    }
}

extension StorageUnavailable {
    /// What pages and the API tell the person.
    static let message = "The service is briefly unavailable. Please try again in a moment."
    /// Seconds a client should wait before trying again.
    static let retryAfter = "5"
}
