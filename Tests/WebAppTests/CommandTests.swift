import Foundation
import TestSupport
import Testing

@testable import WebApp

/// The built `webapp` binary, run as a person would run it: its options, from flags and from
/// the environment, and the mistakes that stop start-up.
@Suite("webapp command")
struct CommandTests: CommandSteps {
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
}
