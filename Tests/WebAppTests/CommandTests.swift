import Foundation
import GRDB
import TestSupport
import Testing

@testable import WebApp

/// The built `webapp` binary, run as a person would run it.
@Suite("webapp command")
struct CommandTests {
    /// The executable next to the test bundle in `.build/<config>/`.
    static var executable: URL {
        var folder = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("webapp").path),
            folder.pathComponents.count > 1
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("webapp")
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    @Test("--help explains every option, wrapped without broken lines")
    func help() throws {
        let (process, output, _) = try run(["--help"])
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for option in [
            "--host", "--port", "--db", "--sms-outbox", "--data-dir", "--https", "--sms", "--sms-webhook-url",
            "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM_NUMBER", "TWILIO_MESSAGING_SERVICE_SID",
            "TWILIO_API_BASE", "WEBAPP_SMS_WEBHOOK_SECRET", "WEBAPP_SECRET",
        ] {
            #expect(text.contains(option), "\(option)")
        }
        // Wrapped at 80 columns without broken lines: the SMS list keeps its columns (every
        // line of it indented), and no line is a stray end of the one before.
        let lines = text.components(separatedBy: "\n")
        let list = lines.drop { $0 != "SMS delivery (--sms):" }.dropFirst().prefix { !$0.isEmpty }
        #expect(list.count >= 5)
        for line in list { #expect(line.hasPrefix("  "), "\(line)") }
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(
            !lines.contains {
                ["(default)", "it elsewhere)", "capitals"].contains($0.trimmingCharacters(in: .whitespaces))
            })
    }

    @Test("every option can come from a WEBAPP_ variable, and --help names each one")
    func environmentVariables() async throws {
        let (helpProcess, output, _) = try run(["--help"])
        let help = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        helpProcess.waitUntilExit()
        // --rotate-assertion-key is an action (rotate and exit), not a setting a service keeps.
        let options = Set(help.matches(of: /\s--([a-z-]+)/).map { String($0.1) }).subtracting([
            "help", "rotate-assertion-key",
        ])
        #expect(options.count >= 15)
        let unfolded = help.replacingOccurrences(of: "\n", with: " ")
        for option in options {
            let variable = "WEBAPP_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
            #expect(unfolded.contains(variable), "\(variable) is not in --help")
            #expect(
                WebAppCommand.environmentOptions.contains(option) || WebAppCommand.environmentFlags.contains(option),
                "--\(option) is not read from \(variable)")
        }

        // Configured by the environment alone; one request id on the page's and the domain's lines.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, output2, errors) = try run(
            [],
            environment: [
                "WEBAPP_PORT": "0", "WEBAPP_DATA_DIR": folder.path, "WEBAPP_SMS": "test", "WEBAPP_LOG_LEVEL": "info",
            ])
        defer { if process.isRunning { process.terminate() } }
        let line = String(decoding: output2.fileHandleForReading.availableData, as: UTF8.self)
        let baseURL = String(try #require(line.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/)).0)
        let browser = Browser(baseURL: baseURL)
        _ = try await browser.get("/login")
        let sent = try await browser.post(
            "/login", form: [("phone", "5305550123")], headers: ["X-Request-Id": "trace-4242"])
        #expect(sent.location == "/verify")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("webapp.sqlite").path))
        process.terminate()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let codeLine = try #require(log.split(separator: "\n").first { $0.contains("Sign-in code sent") })
        #expect(codeLine.contains("request=trace-4242"))
    }

    @Test("bad options fail with a message")
    func badOption() throws {
        let (process, _, errors) = try run(["--port", "99999"])
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(text.contains("--port must be between 0 and 65535"))
    }

    @Test("--db: a malformed PostgreSQL URL, or a server that does not answer, stops start-up with the reason")
    func badDatabase() async throws {
        let (malformed, _, malformedErrors) = try run(["--port", "0", "--db", "postgres://db/app?sslmode=sometimes"])
        let message = String(decoding: malformedErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        malformed.waitUntilExit()
        #expect(malformed.terminationStatus == 64)
        #expect(message.contains("--db: Unknown sslmode \"sometimes\""))

        // Nothing listens on port 1; the password given in the URL is never printed.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-nodb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, _, errors) = try run(
            ["--port", "0", "--data-dir", folder.path, "--log-level", "critical"],
            environment: ["DATABASE_URL": "postgres://app:hunter2@127.0.0.1:1/app?connect_timeout=1"])
        defer { if process.isRunning { process.terminate() } }
        #expect(await exits(process))
        #expect(process.terminationStatus != 0)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("Could not reach PostgreSQL at postgres://app:***@127.0.0.1:1/app"))
        #expect(!text.contains("hunter2"))

        // SIGTERM while start-up still waits for the database (30 s by default) stops it at once.
        let (waiting, _, _) = try run(
            ["--port", "0", "--data-dir", folder.path, "--log-level", "critical"],
            environment: ["DATABASE_URL": "postgres://app@127.0.0.1:1/app"])
        defer { if waiting.isRunning { waiting.terminate() } }
        try await Task.sleep(for: .seconds(1))
        waiting.terminate()
        #expect(await exits(waiting))
    }

    @Test(
        "DATABASE_URL runs the binary on PostgreSQL: it migrates, signs in, is ready, and logs no password",
        .enabled(if: TestPostgres.url != nil))
    func postgresFromEnvironment() async throws {
        let schema = try #require(try await TestPostgres.makeSchema().schema)
        defer { Task { await TestPostgres.dropSchema(schema) } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let separator = TestPostgres.url!.contains("?") ? "&" : "?"
        let (process, output, errors) = try run(
            ["--port", "0", "--data-dir", folder.path, "--sms", "test", "--log-level", "info"],
            environment: [
                "DATABASE_URL": TestPostgres.url! + separator + "schema=\(schema)", "PGPASSWORD": "unused-secret",
            ])
        defer { if process.isRunning { process.terminate() } }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let baseURL = String(try #require(line.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/)).0)
        let browser = Browser(baseURL: baseURL)
        #expect(try await browser.get("/readyz").status == .ok)
        #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        #expect(try await browser.post("/verify", form: [("code", "123456")]).location == "/home")
        #expect(try await TestPostgres.count("users", in: schema) == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("webapp.sqlite").path))
        process.terminate()
        #expect(await exits(process))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("Using PostgreSQL"))
        #expect(log.contains("Applied database migration"))
        #expect(!log.contains("unused-secret"))
        // The purge loop waits for the migrations: no failed purge on a fresh schema.
        #expect(!log.contains("Purge failed"))
    }

    @Test(
        "--sms test: refused off loopback, with --trust-proxy and with --https; on loopback it warns, sends nothing, and 123456 signs in"
    )
    func smsTestMode() async throws {
        for (extra, reason) in [
            (["--host", "0.0.0.0"], "only runs on a loopback --host"),
            (["--trust-proxy"], "cannot run with --trust-proxy or --https"),
            (["--https"], "cannot run with --trust-proxy or --https"),
        ] {
            let (refused, _, refusal) = try run(["--sms", "test", "--port", "0"] + extra)
            let message = String(decoding: refusal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            refused.waitUntilExit()
            #expect(refused.terminationStatus == 64, "\(extra)")
            #expect(message.contains(reason), "\(extra)")
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webapp-testmode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, baseURL, errors) = try await start(dataDirectory: folder, logLevel: "warning", ["--sms", "test"])
        defer { if process.isRunning { process.terminate() } }
        let browser = Browser(baseURL: baseURL)
        #expect(try await browser.post("/login", form: [("phone", "530 555 0123")]).location == "/verify")
        #expect(try await browser.post("/verify", form: [("code", "123456")]).location == "/home")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("outbox.jsonl").path))
        process.terminate()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("SMS TEST MODE: no texts are sent and every code is 123456"))
    }

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

    @Test("--log-format json writes every log line as one JSON object, with the request id and no code or number")
    func jsonLogs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, baseURL, errors) = try await start(dataDirectory: folder, logLevel: "info", ["--log-format", "json"])
        defer { if process.isRunning { process.terminate() } }
        let browser = Browser(baseURL: baseURL)
        _ = try await browser.post("/login", form: [("phone", "530 555 0123")])
        process.terminate()
        #expect(await exits(process))
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        #expect(objects.count == lines.count, "every line is a JSON object of strings")
        #expect(objects.allSatisfy { $0["ts"] != nil && $0["level"] != nil && $0["message"] != nil })
        #expect(objects.contains { $0["request"] != nil && $0["to"] == "+1******0123" })
        #expect(!text.contains("5305550123"))
        let (refused, _, said) = try run(["--log-format", "xml"])
        let complaint = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        refused.waitUntilExit()
        #expect(refused.terminationStatus != 0 && complaint.contains("--log-format must be text or json"))
    }

    /// A server on `dataDirectory` with (530) 555-0123 signed in by text in the browser returned.
    func startSignedIn(dataDirectory folder: URL) async throws -> (Process, Browser) {
        let (server, baseURL, _) = try await start(dataDirectory: folder)
        do {
            let browser = Browser(baseURL: baseURL)
            _ = try await browser.post("/login", form: [("phone", "530 555 0123")])
            let outbox = try String(contentsOf: folder.appendingPathComponent("outbox.jsonl"), encoding: .utf8)
            let code = try #require(outbox.firstMatch(of: /#(\d{6})/)).1
            #expect(try await browser.post("/verify", form: [("code", String(code))]).location == "/home")
            return (server, browser)
        } catch {
            server.terminate()
            throw error
        }
    }

    @Test("webapp events prints the stored events as JSON Lines, filtered; a bad filter is a usage error")
    func events() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-events-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, _) = try await startSignedIn(dataDirectory: folder)
        defer { if server.isRunning { server.terminate() } }

        func events(_ filters: [String]) async throws -> (Int32, [[String: Any]], String) {
            let (process, output, errors) = try run(["events", "--data-dir", folder.path] + filters)
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(await exits(process))
            let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return (process.terminationStatus, lines, complaint)
        }
        let (status, all, _) = try await events([])
        #expect(status == 0)
        #expect(all.compactMap { $0["type"] as? String } == ["code.sent", "session.created"])
        #expect(all.allSatisfy { $0["phone_number"] as? String == "+15305550123" && $0["network"] as? String == "127.0.0.0/24" })
        #expect(try await events(["--type", "session.created", "--phone", "(530) 555-0123"]).1.count == 1)
        #expect(try await events(["--phone", "415 555 0100"]).1.isEmpty)
        #expect(try await events(["--since", "2999-01-01"]).1.isEmpty)
        let (refused, _, said) = try await events(["--type", "nonsense"])
        #expect(refused != 0 && said.contains("--type: one of session.created"))
        #expect(try await events(["--since", "yesterday"]).0 != 0)
        // A day alone as --until runs to its end: today's events are in.
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: .gmt, formatOptions: [.withFullDate])
        #expect(try await events(["--until", today]).1.count == 2)
        #expect(try await events(["--since", "2027-01-01", "--until", "2026-01-01"]).0 != 0)
    }

    @Test("webapp admin finds a person, signs them out everywhere and lifts a lock, each with a reason and an event naming the shell")
    func admin() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-admin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, browser) = try await startSignedIn(dataDirectory: folder)
        defer { if server.isRunning { server.terminate() } }

        func admin(_ arguments: [String]) async throws -> (Int32, String, String) {
            let (process, output, errors) = try run(["admin"] + arguments + ["--data-dir", folder.path])
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(await exits(process))
            return (process.terminationStatus, printed, complaint)
        }
        let (found, json, _) = try await admin(["find", "(530) 555-0123", "--json"])
        #expect(found == 0)
        let person = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(person["status"] as? String == "active")
        #expect(person["sessions"] as? Int == 1)
        #expect(try await admin(["find", "415 555 0100"]).2.contains("No account holds (415) 555-0100."))
        #expect(try await admin(["sign-out-everywhere", "5305550123"]).0 != 0)  // no reason: a usage error
        #expect(try await admin(["sign-out-everywhere", "5305550123", "--reason", "  "]).2.contains("--reason"))
        #expect(try await browser.get("/home").status == .ok)
        let (signedOut, said, _) = try await admin(["sign-out-everywhere", "5305550123", "--reason", "Lost phone"])
        #expect(signedOut == 0 && said.contains("out everywhere: 1"))
        #expect(try await browser.get("/home").location == "/login")
        let (unlocked, unlockJSON, _) = try await admin(["unlock", "5305550123", "--reason", "Called in", "--json"])
        #expect(unlocked == 0 && unlockJSON.contains(#""was_locked":false"#))
        let (_, trail, _) = try {
            let (process, output, errors) = try run(["events", "--data-dir", folder.path, "--type", "operator.action"])
            _ = errors
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, printed, "")
        }()
        let actions = trail.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        // Not locked: nothing lifted, nothing recorded.
        #expect(actions.map { $0["detail"] as? String } == ["sign_out_everywhere"])
        #expect(actions.map { $0["actor"] as? String } == ["shell"])
        #expect(actions.map { $0["reason"] as? String } == ["Lost phone"])
    }

    @Test("webapp admin apps adds, lists, rotates and removes an app in the database, each secret printed once")
    func adminApps() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-apps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, _) = try await startSignedIn(dataDirectory: folder)
        defer { if server.isRunning { server.terminate() } }
        func apps(_ arguments: [String]) async throws -> (Int32, String, String) {
            let (process, output, errors) = try run(["admin", "apps"] + arguments + ["--data-dir", folder.path])
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(await exits(process))
            return (process.terminationStatus, printed, complaint)
        }
        #expect(try await apps(["list"]).1 == "No apps.\n")
        let bad = try await apps(["add", "notes", "--name", "Notes", "--redirect-uri", "http://notes.example/cb", "--reason", "new"])
        #expect(bad.0 != 0 && bad.2.contains("--redirect-uri"))
        let (added, json, _) = try await apps(
            ["add", "notes", "--name", "Notes", "--redirect-uri", "https://notes.example/cb", "--reason", "new", "--json"])
        #expect(added == 0)
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])?["client_secret"])
        #expect(secret.count == 43)
        let (taken, _, said) = try await apps(["add", "notes", "--name", "Notes", "--redirect-uri", "https://notes.example/cb", "--reason", "again"])
        #expect(taken != 0 && said.contains("already has the client id notes"))
        #expect(try await apps(["list"]).1.contains("notes\tNotes\thttps://notes.example/cb"))
        let (rotated, newSecret, _) = try await apps(["rotate", "notes", "--reason", "leaked"])
        #expect(rotated == 0 && !newSecret.contains(secret))
        #expect(try await apps(["list", "--json"]).1.contains(#""previous_secret_until":"#))
        #expect(try await apps(["remove", "notes", "--reason", "retired"]).0 == 0)
        #expect(try await apps(["remove", "notes", "--reason", "retired"]).0 != 0)
        #expect(try await apps(["list"]).1 == "No apps.\n")
    }

    /// Whether `process` ends within 10 s; waits on a thread of its own, off the cooperative
    /// pool (and not on `DispatchQueue.global()`, which runs only as many jobs as there are cores).
    func exits(_ process: Process, within seconds: Int = 10) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                for _ in 0..<(seconds * 10) where process.isRunning { usleep(100_000) }
                continuation.resume(returning: !process.isRunning)
            }.start()
        }
    }

    /// Starts the binary on a free port with `folder` as its data; returns the process and base URL.
    func start(dataDirectory folder: URL, logLevel: String = "error", _ extra: [String] = []) async throws
        -> (Process, String, Pipe)
    {
        let (process, output, errors) = try run(
            [
                "--port", "0", "--data-dir", folder.path, "--log-level", logLevel, "--max-codes-per-client", "100000",
                "--max-sign-ins-per-client", "100000",
            ]
                + extra)
        let line = await withCheckedContinuation { continuation in
            Thread {
                var data = Data()
                while !data.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
        let match = try #require(line.firstMatch(of: /Listening on (http:\/\/127\.0\.0\.1:\d+)/))
        return (process, String(match.1), errors)
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

    @Test("webapp backup copies the live database while sign-ins go on; a server started on the copy has every sign-in and deposit acknowledged before it began")
    func backup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-backup-\(UUID().uuidString)")
        let restored = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-restored-\(UUID().uuidString)")
        defer { for each in [folder, restored] { try? FileManager.default.removeItem(at: each) } }
        let (server, baseURL, _) = try await start(dataDirectory: folder)
        defer { if server.isRunning { server.terminate() } }
        let wallet = WalletPageTests()
        func signIn(_ phone: String, at baseURL: String) async throws -> Browser {
            let browser = Browser(baseURL: baseURL)
            _ = try await browser.post("/login", form: [("phone", phone)])
            let outbox = try String(contentsOf: folder.appendingPathComponent("outbox.jsonl"), encoding: .utf8)
            let code = try #require(outbox.split(separator: "\n").last?.firstMatch(of: /#(\d{6})/)).1
            #expect(try await browser.post("/verify", form: [("code", String(code))]).location == "/home")
            return browser
        }
        // Acknowledged before the backup: four people signed in, each with a deposit.
        var before: [(browser: Browser, account: String)] = []
        for n in 0..<4 {
            let browser = try await signIn("530555\(1000 + n)", at: baseURL)
            _ = try await wallet.submit(browser, try await browser.get("/home"), "/accounts", [("name", "Savings")])
            let home = try await browser.get("/home")
            let account = String(try #require(home.body.firstMatch(of: /href="(\/accounts\/\d+)"/)).1)
            let deposited = try await wallet.submit(
                browser, try await browser.get(account), account + "/deposit", [("amount", "\(n + 1)0.00")])
            #expect(deposited.location == account)
            before.append((browser, account))
        }
        // Writes go on while the copy is taken.
        let load = Task {
            var n = 0
            while !Task.isCancelled && n < 200 {
                _ = try? await Browser(baseURL: baseURL).post("/login", form: [("phone", "415555\(2000 + n)")])
                n += 1
            }
        }
        let copy = restored.appendingPathComponent("copy.sqlite").path
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        // Someone's file beside it, named as a careless backup's leftover would be: left alone.
        FileManager.default.createFile(atPath: copy + ".partial", contents: Data("mine".utf8))
        // The database found as the server finds it: WEBAPP_DATA_DIR.
        let (backup, output, errors) = try run(["backup", "--to", copy], environment: ["WEBAPP_DATA_DIR": folder.path])
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        #expect(await exits(backup))
        load.cancel()
        #expect(backup.terminationStatus == 0 && said.contains("Backed up"))
        #expect(FileManager.default.contents(atPath: copy + ".partial") == Data("mine".utf8))
        // Private, as the database is: it holds the same.
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: restored.path).sorted() == ["copy.sqlite", "copy.sqlite.partial"])
        // Never over an existing file.
        let (again, _, refusal) = try run(["backup", "--to", copy, "--data-dir", folder.path])
        #expect(await exits(again))
        #expect(again.terminationStatus != 0)
        #expect(String(decoding: refusal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("exists"))

        // A second server on the copy (the same secret, as a restore would bring it).
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("secret"), to: restored.appendingPathComponent("secret"))
        let (second, secondURL, _) = try await start(dataDirectory: restored, ["--db", copy])
        defer { if second.isRunning { second.terminate() } }
        for (n, person) in before.enumerated() {
            let browser = Browser(baseURL: secondURL)
            for (name, value) in person.browser.cookies { browser.setCookie(name, value) }
            let page = try await browser.get(person.account)
            #expect(page.status == .ok, "signed in on the copy")
            #expect(wallet.balance(page) == "$\(n + 1)0.00")
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
