import Foundation
import Testing

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

    func run(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    @Test("--help explains every option")
    func help() throws {
        let (process, output, _) = try run(["--help"])
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for option in ["--host", "--port", "--db", "--sms-outbox", "--data-dir", "--https"] {
            #expect(text.contains(option), "\(option)")
        }
    }

    @Test("bad options fail with a message")
    func badOption() throws {
        let (process, _, errors) = try run(["--port", "99999"])
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(text.contains("--port must be between 0 and 65535"))
    }

    @Test("serves on the port it prints, signs in, and stops cleanly on SIGTERM")
    func servesAndStops() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, output, errors) = try run(["--port", "0", "--data-dir", folder.path, "--log-level", "debug"])
        defer { if process.isRunning { process.terminate() } }

        // The first line says where it listens; read it off the cooperative pool.
        let line = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var data = Data()
                while !data.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        let match = try #require(line.firstMatch(of: /Listening on (http:\/\/127\.0\.0\.1:(\d+))/))
        let browser = Browser(baseURL: String(match.1))
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
        let exited = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                for _ in 0..<100 where process.isRunning { usleep(100_000) }
                continuation.resume(returning: !process.isRunning)
            }
        }
        #expect(exited)
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
}
