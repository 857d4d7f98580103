import AccountCore
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import Logging
import OIDCCore
import PostgresStorage
import ServiceLifecycle
import SQLiteStorage
import StorageSQL
import WalletCore

/// Where sign-ins and wallets are kept: the SQLite file (one instance, the default) or a
/// PostgreSQL server shared by several instances. The rest of the app sees only the stores.
struct Storage: Sendable {
    let auth: any AuthStore
    let wallet: any WalletStore
    /// The OpenID Connect provider's codes, tokens and consents.
    let oidc: any OIDCStore
    /// The account's summary, download and deletion.
    let account: any AccountStore
    /// What happened to each account ("Recent activity", `webapp events`).
    let events: any EventStore
    /// Where each webhook endpoint's deliveries stand.
    let webhooks: any WebhookDeliveries
    /// The operators' console's counts (its glance page).
    let console: any ConsoleStore
    /// The apps (OpenID Connect clients) added in the console.
    let apps: any AppStore
    /// Throws unless the database answers now (for `/readyz`).
    let ping: @Sendable () async throws -> Void
    /// The database in the app's `ServiceGroup`: runs from start-up until the graceful shutdown
    /// reaches it (last, after the server's last answer), then closes the database.
    let service: any Service
    /// Brings the schema up to date; the HTTP service awaits it before it listens (PostgreSQL
    /// migrates once its pool runs; SQLite was migrated when opened).
    let prepare: @Sendable () async throws -> Void
    /// Closes the database at once (tests: the database is gone).
    let close: @Sendable () async throws -> Void

    /// Opens the configured database (SQLite: the file, migrated; PostgreSQL: the pool, which
    /// connects and migrates once the services run). A command beside a live server passes
    /// `server: false`: closing, it leaves SQLite's WAL to the server (``SQLiteDatabase/close(foldingWAL:)``).
    static func open(_ configuration: AppConfiguration, logger: Logger, server: Bool = true) throws -> Storage {
        if let postgres = configuration.postgres {
            let database = PostgresBackend(configuration: postgres, logger: logger)
            logger.info("Using PostgreSQL", metadata: ["database": "\(postgres.redacted)"])
            return Storage(
                auth: SQLAuthStore(runner: PostgresRunner(database)), wallet: SQLWalletStore(runner: PostgresRunner(database)),
                oidc: SQLOIDCStore(runner: PostgresRunner(database)),
                account: SQLAccountStore(runner: PostgresRunner(database), codeLifetime: configuration.policy.codeLifetime),
                events: SQLEventStore(runner: PostgresRunner(database)),
                webhooks: SQLWebhookDeliveries(runner: PostgresRunner(database)),
                console: SQLConsoleStore(runner: PostgresRunner(database)), apps: SQLAppStore(runner: PostgresRunner(database)),
                ping: { try await database.ping() }, service: database, prepare: { try await database.migrate() },
                close: { database.close() })
        }
        let database = try SQLiteDatabase(
            path: configuration.resolvedDatabasePath, busyTimeout: configuration.sqliteBusyTimeout,
            onStatement: configuration.onDatabaseStatement)
        return Storage(
            auth: SQLAuthStore(runner: SQLiteRunner(database)), wallet: SQLWalletStore(runner: SQLiteRunner(database)),
            oidc: SQLOIDCStore(runner: SQLiteRunner(database)),
            account: SQLAccountStore(runner: SQLiteRunner(database), codeLifetime: configuration.policy.codeLifetime),
            events: SQLEventStore(runner: SQLiteRunner(database)),
            webhooks: SQLWebhookDeliveries(runner: SQLiteRunner(database)),
            console: SQLConsoleStore(runner: SQLiteRunner(database)), apps: SQLAppStore(runner: SQLiteRunner(database)),
            ping: { try await database.ping() },
            service: DatabaseService(name: "SQLite", close: { try database.close(foldingWAL: server) }, logger: logger),
            prepare: {}, close: { try database.close(foldingWAL: server) })
    }
}

extension StorageUnavailable {
    /// What pages and the API tell the person.
    static let message = "The service is briefly unavailable. Please try again in a moment."
    /// Seconds a client should wait before trying again.
    static let retryAfter = "5"
}
