import Foundation
import Testing

/// The built `webapp` binary's subcommands for an operator at a shell: events, admin (apps
/// too) and backup.
@Suite("webapp subcommands: events, admin, backup")
struct SubcommandTests: CommandSteps {
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
}
