import Foundation
import Testing

@testable import AuthCore

@Suite("Server secret")
struct ServerSecretTests {
    @Test("created once with mode 0600, then read back")
    func createdPrivately() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("secret").path
        let first = try ServerSecret.loadOrCreate(at: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let again = try ServerSecret.loadOrCreate(at: path)
        let phone = try PhoneNumber(parsing: "5305550123")
        let code = OneTimeCode("000001")!
        #expect(
            CodeHasher(secret: first).digest(of: code, for: phone)
                == CodeHasher(secret: again).digest(of: code, for: phone))
    }

    @Test(
        "short or malformed secrets are refused",
        arguments: ["", "abc", String(repeating: "z", count: 64), String(repeating: "a", count: 62)])
    func refused(_ hex: String) {
        #expect(throws: (any Error).self) { try ServerSecret(hex: hex, source: "test") }
    }
}
