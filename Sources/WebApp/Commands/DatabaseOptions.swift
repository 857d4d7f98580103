import ArgumentParser
import Foundation
import Logging

/// Where the server's database is, as an operator's command is told (`webapp events`,
/// `webapp webhooks`, `webapp backup`): the same `--data-dir` and `--db` the server takes, and the
/// same variables (`WEBAPP_DATA_DIR`, `WEBAPP_DB`, `DATABASE_URL`).
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "Folder of the server's database, as given to the server (also from WEBAPP_DATA_DIR; default: data).")
    var dataDirectory: String?

    @Option(
        name: .customLong("db"), help: "The server's SQLite file or postgres:// URL (also from WEBAPP_DB or DATABASE_URL).")
    var databasePath: String?

    /// The server's configuration for these options and the environment, read as the server
    /// reads them (`WEBAPP_DATA_DIR`, `WEBAPP_DB`, `DATABASE_URL`).
    func serverConfiguration() throws -> AppConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let given = (dataDirectory.map { ["--data-dir", $0] } ?? []) + (databasePath.map { ["--db", $0] } ?? [])
        let server = try WebAppCommand.parse(WebAppCommand.arguments(given, environment: environment))
        return try server.appConfiguration(environment: environment)
    }

    /// Opens the database (never making a SQLite file where none was), runs `body` on it, and
    /// closes it.
    func withStorage<T: Sendable>(label: String, _ body: @escaping @Sendable (Storage) async throws -> T) async throws -> T
    {
        let configuration = try serverConfiguration()
        if configuration.postgres == nil, !FileManager.default.fileExists(atPath: configuration.resolvedDatabasePath) {
            throw ValidationError("No database at \(configuration.resolvedDatabasePath): give --data-dir or --db.")
        }
        var logger = Logger(label: label)
        logger.logLevel = .warning
        let storage = try Storage.open(configuration, logger: logger, server: false)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await storage.service.run()
                return nil
            }
            defer { group.cancelAll() }
            try await storage.prepare()
            let result = try await body(storage)
            try await storage.close()
            return result
        }
    }
}
