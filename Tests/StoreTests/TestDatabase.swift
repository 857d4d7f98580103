import AccountCore
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import GRDB
import Logging
import OIDCCore
import PostgresNIO
import SQLiteStorage
import StorageSQL
import TestSupport
import WalletCore

@testable import PostgresStorage

/// The backends every store test runs on: SQLite always (GRDB's in-memory queue), PostgreSQL
/// when `scripts/test` started one (`TEST_DATABASE_URL`). A behaviour one backend lacks fails
/// that backend's case of the test.
enum Backend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    static var all: [Backend] { TestPostgres.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    var description: String { rawValue }
}

/// A fresh, migrated database on one backend, with both stores and a little SQL for tests that
/// look at the rows themselves (the same statement text runs on both).
final class TestDatabase: Sendable {
    let auth: any AuthStore
    let oidc: any OIDCStore
    let wallet: any WalletStore
    /// The account's download and deletion (codes live 10 minutes, as by default).
    let account: any AccountStore
    let events: any EventStore
    let webhooks: any WebhookDeliveries
    let console: any ConsoleStore
    private let sqlite: SQLiteDatabase?
    private let postgres: (backend: PostgresBackend, stop: @Sendable () async -> Void, schema: String)?

    init(_ backend: Backend) async throws {
        switch backend {
        case .sqlite:
            let database = try SQLiteDatabase.inMemory()
            sqlite = database
            postgres = nil
            auth = SQLAuthStore(runner: SQLiteRunner(database))
            oidc = SQLOIDCStore(runner: SQLiteRunner(database))
            wallet = SQLWalletStore(runner: SQLiteRunner(database))
            account = SQLAccountStore(runner: SQLiteRunner(database), codeLifetime: 600)
            events = SQLEventStore(runner: SQLiteRunner(database))
            webhooks = SQLWebhookDeliveries(runner: SQLiteRunner(database))
            console = SQLConsoleStore(runner: SQLiteRunner(database))
        case .postgres:
            let configuration = try await TestPostgres.makeSchema()
            let (database, stop) = try await PostgresBackend.running(configuration)
            sqlite = nil
            postgres = (database, stop, configuration.schema!)
            auth = SQLAuthStore(runner: PostgresRunner(database))
            oidc = SQLOIDCStore(runner: PostgresRunner(database))
            wallet = SQLWalletStore(runner: PostgresRunner(database))
            account = SQLAccountStore(runner: PostgresRunner(database), codeLifetime: 600)
            events = SQLEventStore(runner: PostgresRunner(database))
            webhooks = SQLWebhookDeliveries(runner: PostgresRunner(database))
            console = SQLConsoleStore(runner: PostgresRunner(database))
        }
    }

    /// The first column of the first row of `sql`, as an integer (`nil` for no row).
    func integer(_ sql: String) async throws -> Int? {
        if let sqlite { return try await sqlite.writer.read { try Int.fetchOne($0, sql: sql) } }
        return try await postgres!.backend.rows(PostgresQuery(unsafeSQL: sql)).first?.decode(Int.self)
    }

    /// The first column of the first row of `sql`, as bytes.
    func data(_ sql: String) async throws -> Data? {
        if let sqlite { return try await sqlite.writer.read { try Data.fetchOne($0, sql: sql) } }
        return try await postgres!.backend.rows(PostgresQuery(unsafeSQL: sql)).first?.decode(Data.self)
    }

    /// Runs a statement outside the stores.
    func execute(_ sql: String) async throws {
        if let sqlite { return try await sqlite.writer.write { try $0.execute(sql: sql) } }
        try await postgres!.backend.rows(PostgresQuery(unsafeSQL: sql))
    }

    /// Rows in `table`.
    func count(_ table: String) async throws -> Int {
        try await integer("SELECT count(*) FROM \(table)") ?? 0
    }

    /// Closes the database and, on PostgreSQL, drops the test's schema.
    func close() async {
        try? sqlite?.close()
        if let postgres {
            await postgres.stop()
            await TestPostgres.dropSchema(postgres.schema)
        }
    }
}

/// Runs `body` with a fresh database on `backend`, closed afterwards whatever happens.
func withDatabase<T>(_ backend: Backend, _ body: (TestDatabase) async throws -> T) async throws -> T {
    let database = try await TestDatabase(backend)
    do {
        let result = try await body(database)
        await database.close()
        return result
    } catch {
        await database.close()
        throw error
    }
}
