import AsyncHTTPClient
import AuthCore
import Foundation
import GRDB
import HTTPLite
import Logging
import NIOCore
import NIOHTTP1

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

/// The real app on 127.0.0.1 and a free port, with its data in a temporary folder.
final class TestServer: @unchecked Sendable {
    let app: Application
    let port: Int
    let folder: URL
    let clock: TestClock

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var outboxPath: String { folder.appendingPathComponent("outbox.jsonl").path }

    private init(app: Application, port: Int, folder: URL, clock: TestClock) {
        self.app = app
        self.port = port
        self.folder = folder
        self.clock = clock
    }

    static func start(_ configure: (inout AppConfiguration) -> Void = { _ in }) async throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-\(UUID().uuidString)")
        var configuration = AppConfiguration()
        configuration.server.host = "127.0.0.1"
        configuration.server.port = 0
        configuration.dataDirectory = folder.path
        configuration.templatesDirectory = packageRoot.appendingPathComponent("Templates").path
        configuration.publicDirectory = packageRoot.appendingPathComponent("Public").path
        configuration.smsDomain = "example.com"
        configure(&configuration)
        var logger = Logger(label: "webapp-test")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG"] == nil ? .critical : .debug
        let clock = TestClock()
        let app = try await Application.make(configuration: configuration, logger: logger, clock: { clock.now })
        let address = try await app.start()
        return TestServer(app: app, port: address.port!, folder: folder, clock: clock)
    }

    func stop() async {
        await app.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Row counts of the named tables, read from the server's database file.
    func tableCounts(_ tables: [String]) throws -> [String: Int] {
        let database = try DatabaseQueue(path: folder.appendingPathComponent("webapp.sqlite").path)
        defer { try? database.close() }
        return try database.read { db in
            try Dictionary(
                uniqueKeysWithValues: tables.map { table in
                    (table, try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0)
                })
        }
    }

    /// Every text in the outbox, oldest first.
    func outbox() throws -> [(to: String, body: String)] {
        guard let data = FileManager.default.contents(atPath: outboxPath) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return (object["to"] as! String, object["body"] as! String)
        }
    }

    /// The code in the last text sent to `e164`.
    func lastCode(to e164: String = "+15305550123") throws -> String {
        guard let body = try outbox().last(where: { $0.to == e164 })?.body,
            let code = body.split(separator: "#").last
        else { throw TestFailure("no text was sent to \(e164)") }
        return String(code)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` against a fresh server and always stops it.
func withServer(
    _ configure: (inout AppConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> Void
) async throws {
    let server = try await TestServer.start(configure)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
