import AsyncHTTPClient
import AuthCore
import Encodings
import Foundation
import GRDB
import HTTPLite
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import PostgresStorage
import TestSupport

@testable import WebApp

/// The package root, found from this file, so tests work from any working directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A clock the tests move by hand: it stands still otherwise, so what a test checks about
/// time (Retry-After, expires_in) does not depend on how busy the machine is.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private let start = Date()
    private var offset: TimeInterval = 0

    var now: Date { lock.withLock { start.addingTimeInterval(offset) } }

    func advance(by seconds: TimeInterval) { lock.withLock { offset += seconds } }
}

/// The database a test server uses.
enum TestDatabase: Sendable {
    /// PostgreSQL when `TEST_DATABASE_URL` names a server (`scripts/test` runs the suite once
    /// without and once with it), SQLite otherwise.
    case fromEnvironment
    /// Always SQLite (tests of SQLite itself, such as which thread runs its statements).
    case sqlite
}

/// The real app on 127.0.0.1 and a free port, with its data in a temporary folder (and its
/// tables in SQLite there, or in a schema of its own on the test PostgreSQL server).
final class TestServer: @unchecked Sendable {
    let app: Application
    /// The app's services, running until ``stop()``.
    private let running: Task<Void, any Error>
    let port: Int
    let folder: URL
    let clock: TestClock
    /// What another instance needs to share this one's database and secret.
    let configuration: AppConfiguration
    /// Whether this server made its PostgreSQL schema (and drops it at stop).
    private let ownsSchema: Bool

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var outboxPath: String { folder.appendingPathComponent("outbox.jsonl").path }
    var usesPostgres: Bool { configuration.postgres != nil }

    private init(
        app: Application, running: Task<Void, any Error>, port: Int, folder: URL, clock: TestClock,
        configuration: AppConfiguration, ownsSchema: Bool
    ) {
        self.app = app
        self.running = running
        self.port = port
        self.folder = folder
        self.clock = clock
        self.configuration = configuration
        self.ownsSchema = ownsSchema
    }

    /// Starts a server; `sharing` another makes a second instance on the same database, with the
    /// same configuration (secret, limits) and clock, as behind a load balancer; only its port and
    /// data folder (so its SMS outbox) are its own.
    static func start(
        database: TestDatabase = .fromEnvironment, sharing other: TestServer? = nil,
        _ configure: (inout AppConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-\(UUID().uuidString)")
        var configuration = AppConfiguration()
        configuration.server.host = "127.0.0.1"
        configuration.server.port = 0
        configuration.dataDirectory = folder.path
        configuration.templatesDirectory = packageRoot.appendingPathComponent("Templates").path
        configuration.publicDirectory = packageRoot.appendingPathComponent("Public").path
        configuration.smsDomain = "example.com"
        configuration.secret = ServerSecret.random()
        if let other {
            configuration = other.configuration
            configuration.databasePath = other.configuration.resolvedDatabasePath
            configuration.dataDirectory = folder.path
        } else if case .fromEnvironment = database, TestPostgres.url != nil {
            configuration.postgres = try await TestPostgres.makeSchema()
        }
        configure(&configuration)
        var logger = Logger(label: "webapp-test")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG"] == nil ? .critical : .debug
        let clock = other?.clock ?? TestClock()
        let ownsSchema = other == nil && configuration.postgres != nil
        let app: Application
        do {
            app = try await Application.make(configuration: configuration, logger: logger, clock: { clock.now })
        } catch {
            // Tests of configuration errors: the schema made for the app goes too.
            if ownsSchema, let schema = configuration.postgres?.schema { await TestPostgres.dropSchema(schema) }
            throw error
        }
        let running = Task { try await app.run() }
        guard let port = await app.listeningAddress()?.port else {
            try await running.value
            throw TestFailure("the server stopped before it listened")
        }
        return TestServer(
            app: app, running: running, port: port, folder: folder, clock: clock, configuration: configuration,
            ownsSchema: ownsSchema)
    }

    func stop() async {
        await app.shutdown()
        try? await running.value
        if ownsSchema, let schema = configuration.postgres?.schema { await TestPostgres.dropSchema(schema) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Row counts of the named tables, read from the server's database.
    func tableCounts(_ tables: [String]) async throws -> [String: Int] {
        if let schema = configuration.postgres?.schema {
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try await TestPostgres.count(table, in: schema) }
            return counts
        }
        let database = try behindItsBack()
        defer { try? database.close() }
        return try await database.read { db in
            try Dictionary(
                uniqueKeysWithValues: tables.map { table in
                    (table, try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0)
                })
        }
    }

    /// The rows `sql` returns from the server's database, each column as text (`NULL` as "").
    func rows(_ sql: String) async throws -> [[String]] {
        if let schema = configuration.postgres?.schema { return try await TestPostgres.rows(sql, in: schema) }
        let database = try behindItsBack()
        defer { try? database.close() }
        return try await database.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: ""
                    case .int64(let number): String(number)
                    case .double(let number): String(number)
                    case .string(let text): text
                    case .blob(let data): data.hexString
                    }
                }
            }
        }
    }

    /// Runs one statement on the server's database behind its back (to corrupt it on purpose).
    func execute(_ sql: String) async throws {
        if let schema = configuration.postgres?.schema {
            try await TestPostgres.execute(sql, in: schema)
            return
        }
        let database = try behindItsBack()
        defer { try? database.close() }
        try await database.write { try $0.execute(sql: sql) }
    }

    /// A second connection to the server's SQLite file, which waits (up to 10 s) for the
    /// server's own writes rather than failing at once when one is under way: the server writes
    /// on its own schedule (the purge, the health check, the outbox), at any moment of a test.
    private func behindItsBack() throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: self.configuration.resolvedDatabasePath, configuration: configuration)
    }

    /// Every text in the outbox, oldest first.
    func outbox() throws -> [(to: String, body: String)] {
        guard let data = FileManager.default.contents(atPath: outboxPath) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return (object["to"] as! String, object["body"] as! String)
        }
    }

    /// The code in the last text or call sent to `e164`: a text's last line (`@example.com
    /// #123456`), or the first six digits a call reads out.
    func lastCode(to e164: String = "+15305550123") throws -> String {
        guard let body = try outbox().last(where: { $0.to == e164 })?.body else {
            throw TestFailure("no text or call was sent to \(e164)")
        }
        if body.contains("#"), let code = body.split(separator: "#").last { return String(code) }
        return String(body.filter(\.isNumber).prefix(6))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` against a fresh server and always stops it.
func withServer(
    database: TestDatabase = .fromEnvironment,
    _ configure: (inout AppConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> Void
) async throws {
    let server = try await TestServer.start(database: database, configure)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
