import Foundation
import GRDB
import TestSupport
import Testing

/// The built `webapp` binary serving and stopping: SIGTERM, the drain before it, and a crash.
@Suite("webapp command: serving and stopping")
struct CommandShutdownTests: CommandSteps {
    @Test("serves on the port it prints, signs in, and stops cleanly on SIGTERM")
    func servesAndStops() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, baseURL, errors) = try await start(dataDirectory: folder, logLevel: "debug")
        defer { if process.isRunning { process.terminate() } }
        let browser = Browser(baseURL: baseURL)
        let sent = try await browser.post("/login", form: [("phone", "530 555 0123")])
        #expect(sent.location == "/verify")

        // The outbox and the 0600 secret are where the options say.
        let outbox = try String(contentsOf: folder.appendingPathComponent("outbox.jsonl"), encoding: .utf8)
        let code = try #require(outbox.firstMatch(of: /#(\d{6})/)).1
        let verified = try await browser.post("/verify", form: [("code", String(code))])
        #expect(verified.location == "/home")
        let secret = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("secret").path)
        #expect((secret[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("webapp.sqlite").path))

        process.terminate()  // SIGTERM
        #expect(await exits(process))
        #expect(process.terminationStatus == 0)

        // Secrets stay secret: the logs name the texts and sign-ins, never the code, and the
        // number only by its last four digits.
        let logs = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(logs.contains("+1******0123"))
        #expect(logs.contains("Signed in"))
        #expect(!logs.contains(String(code)))
        #expect(!logs.contains("5305550123") && !logs.contains("555-0123"))
        #expect(logs.contains("Stopped"))
    }

    @Test("kill -9 under load loses no signed-in session and leaves the database intact")
    func crashSafety() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, baseURL, _) = try await start(dataDirectory: folder)
        defer { if first.isRunning { first.terminate() } }

        // 20 people sign in one after another, while 4 other clients keep the server busy
        // with sign-in starts; each signed-in browser is remembered once /home was reached.
        let load = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var line = 0
                        while !Task.isCancelled {
                            let browser = Browser(baseURL: baseURL)
                            _ = try? await browser.post(
                                "/login",
                                form: [("phone", "415555\(String(format: "%04d", worker * 1000 + line % 1000))")])
                            line += 1
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var signedIn: [Browser] = []
        for person in 0..<20 {
            let phone = "530555\(String(format: "%04d", person))"
            let browser = Browser(baseURL: baseURL)
            _ = try await browser.post("/login", form: [("phone", phone)])
            let outbox = try String(contentsOf: folder.appendingPathComponent("outbox.jsonl"), encoding: .utf8)
            let line = try #require(outbox.split(separator: "\n").last { $0.contains("+1\(phone)") })
            let code = try #require(line.firstMatch(of: /#(\d{6})/)).1
            let verified = try await browser.post("/verify", form: [("code", String(code))])
            #expect(verified.location == "/home")
            if try await browser.get("/home").status == .ok { signedIn.append(browser) }
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        load.cancel()
        #expect(first.terminationReason == .uncaughtSignal)

        let database = try DatabaseQueue(path: folder.appendingPathComponent("webapp.sqlite").path)
        let integrity = try await database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        try database.close()
        #expect(integrity == ["ok"])

        let (second, newURL, _) = try await start(dataDirectory: folder)
        defer { second.terminate() }
        #expect(signedIn.count == 20)
        for browser in signedIn {
            let restarted = Browser(baseURL: newURL)
            restarted.setCookie("session", try #require(browser.cookie("session")))
            #expect(try await restarted.get("/home").status == .ok)
        }
    }

    @Test("--shutdown-delay: after SIGTERM /readyz says 503 at once while pages are still served, each answer closing its connection; then the listener closes and the process exits 0")
    func drainBeforeShutdown() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-drain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A delay far longer than the steps below take on a loaded machine: they happen inside it.
        let (process, baseURL, _) = try await start(dataDirectory: folder, ["--shutdown-delay", "15"])
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(Int(baseURL.split(separator: ":").last!))
        func get(_ path: String, on connection: RawConnection) async -> String {
            _ = connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            return await connection.readResponse() ?? ""
        }
        // A keep-alive connection opened before the signal, idle when it comes.
        let idle = try RawConnection(port: port)
        #expect(await get("/readyz", on: idle).hasPrefix("HTTP/1.1 200"))

        process.terminate()
        // Not ready from when the signal is handled (each probe on a new connection).
        var ready = ""
        #expect(
            try await eventually {
                ready = await get("/readyz", on: try RawConnection(port: port))
                return ready.hasPrefix("HTTP/1.1 503")
            })
        #expect(ready.contains("shutting down"))
        #expect(ready.lowercased().contains("connection: close"))
        // Still served, on a new connection and on the idle one, each then closed.
        let page = await get("/login", on: try RawConnection(port: port))
        #expect(page.hasPrefix("HTTP/1.1 200") && page.lowercased().contains("connection: close"))
        let again = await get("/healthz", on: idle)
        #expect(again.hasPrefix("HTTP/1.1 200") && again.lowercased().contains("connection: close"))

        // After the delay: a clean exit, and no connection taken any more.
        #expect(await exits(process, within: 60))
        #expect(process.terminationStatus == 0)
        #expect(throws: (any Error).self) { _ = try RawConnection(port: port) }
    }

    @Test("SIGTERM stops accepting but finishes the request in flight, then exits cleanly")
    func gracefulShutdown() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-stop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, baseURL, _) = try await start(dataDirectory: folder)
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(Int(baseURL.split(separator: ":").last!))

        // A request half sent when the signal arrives, on a connection the server took (it
        // answered on it) and whose bytes it has read.
        let inFlight = try RawConnection(port: port)
        inFlight.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await inFlight.readResponse()?.hasPrefix("HTTP/1.1 200") == true)
        let body = "phone=5305550123&csrf=x"
        inFlight.send(
            "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\nphone="
        )
        #expect(await eventually { inFlight.isReadByServer(port: port) })
        process.terminate()

        // No new connections are taken, from when the signal is handled.
        #expect(await eventually { (try? RawConnection(port: port)) == nil })
        #expect(process.isRunning)

        // The request in flight completes and gets its answer (403: it has no valid CSRF token).
        inFlight.send(String(body.dropFirst("phone=".count)))
        let response = await inFlight.readAll()
        #expect(response.hasPrefix("HTTP/1.1 403"))
        #expect(response.contains("</html>"))

        #expect(await exits(process))
        #expect(process.terminationStatus == 0)
        // One self-contained file left: no WAL to be replayed into a backup copied over it.
        let wal = folder.appendingPathComponent("webapp.sqlite-wal").path
        #expect((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0 == 0)
    }
}
