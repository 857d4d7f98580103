import Foundation
import Testing

@testable import WebApp

/// Gateway mode's options, as a person types them: mistakes stop start-up with what to fix.
@Suite("webapp command, gateway mode")
struct GatewayCommandTests {
    /// Runs `webapp` with `arguments` to its end; its status and what it wrote.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let (process, output, errors) = try CommandTests().run(arguments, environment: environment)
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, err)
    }

    @Test(
        "wrong gateway settings stop start-up with the reason",
        arguments: [
            (["--gateway-domain", "example.com"], "--gateway-domain needs --public-url"),
            (["--gateway-rules", "/nonexistent.json"], "--gateway-rules needs --gateway-domain"),
            (["--public-url", "https://login.example.com/signin"], "--public-url must be"),
            (["--public-url", "ftp://login.example.com"], "--public-url must be"),
            (["--public-url", "https://login.example.com?x=1"], "--public-url must be"),
            (["--public-url", "http://login.example.com", "--https"], "--public-url must be this app's https://"),
            (["--gateway-domain", "com", "--public-url", "https://login.com"], "has one label only"),
            (["--gateway-domain", "example.com", "--public-url", "https://login.other.test"], "--public-url must be"),
            (
                [
                    "--gateway-domain", "example.com", "--public-url", "https://login.example.com", "--gateway-rules",
                    "/nonexistent.json",
                ],
                "Could not read the gateway rules file"
            ),
        ])
    func refused(arguments: [String], says: String) throws {
        let (status, _, errors) = try run(arguments + ["--port", "0"])
        #expect(status != 0)
        #expect(errors.contains(says), "\(errors)")
    }

    @Test("a bad WEBAPP_ASSERTION_KEY stops start-up and names the variable")
    func badKey() throws {
        let (status, _, errors) = try run(
            ["--gateway-domain", "example.com", "--public-url", "https://login.example.com", "--port", "0"],
            environment: ["WEBAPP_ASSERTION_KEY": "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----"])
        #expect(status != 0)
        #expect(errors.contains("WEBAPP_ASSERTION_KEY"), "\(errors)")
    }

    @Test("--rotate-assertion-key makes a new key, keeps the old one as the previous key, and exits")
    func rotate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rotate-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (first, out, _) = try run(["--data-dir", folder, "--rotate-assertion-key"])
        #expect(first == 0)
        #expect(out.contains("New assertion key"))
        let key = try String(contentsOfFile: folder + "/assertion-key.pem", encoding: .utf8)
        let (second, _, _) = try run(["--data-dir", folder, "--rotate-assertion-key"])
        #expect(second == 0)
        #expect(try String(contentsOfFile: folder + "/assertion-key.previous.pem", encoding: .utf8) == key)
        #expect(try String(contentsOfFile: folder + "/assertion-key.pem", encoding: .utf8) != key)
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder + "/assertion-key.previous.pem")[.posixPermissions]
            as? Int
        #expect(mode == 0o600)
    }
}
