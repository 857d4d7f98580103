import Foundation
import Testing

@testable import WebApp

/// What the app leaves on disk is its user's alone: other users of the machine read neither
/// the database (sessions, codes' digests, balances) nor the secret nor the outbox (codes).
@Suite("Data file modes")
struct FileModeTests {
    /// Runs the built binary (``CommandSteps``, as ``CommandTests`` takes them).
    let binary = CommandTests()

    @Test(
        "the data folder is 0700; the database, its -wal and -shm, the secret and the outbox are 0600 (umask 0077)")
    func fileModes() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        // A shell's usual umask (022) would leave all of it readable by every user.
        let folder = parent.appendingPathComponent("data")
        let (process, baseURL, _) = try await binary.start(dataDirectory: folder)
        defer { if process.isRunning { process.terminate() } }
        #expect(
            try await Browser(baseURL: baseURL).post("/login", form: [("phone", "5305550123")]).location == "/verify")
        func mode(_ name: String) throws -> Int? {
            let path = name.isEmpty ? folder.path : folder.appendingPathComponent(name).path
            return (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(try mode("") == 0o700)
        for file in ["webapp.sqlite", "webapp.sqlite-wal", "webapp.sqlite-shm", "secret", "outbox.jsonl"] {
            #expect(try mode(file) == 0o600, "\(file)")
        }
        process.terminate()
        #expect(await binary.exits(process))

        // The app built in code (no command, no umask) makes its data folder 0700 as well.
        try await withServer { server in
            let attributes = try FileManager.default.attributesOfItem(atPath: server.folder.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }
}
