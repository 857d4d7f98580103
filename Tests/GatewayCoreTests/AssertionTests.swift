import AuthCore
import Encodings
import Foundation
import GatewayCore
import JWTKit
import Testing

/// The signed assertion and the key set an upstream verifies it with.
@Suite("Assertions")
struct AssertionTests {
    static let user = User(id: 42, phone: try! PhoneNumber(parsing: "4155550100"))
    static let wiki = HostName(authority: "wiki.example.com")!

    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = Date(timeIntervalSince1970: 1_800_000_000)
        func read() -> Date { lock.withLock { now } }
        func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
    }

    /// Verifies `token` the way an upstream does: with nothing but the published key set.
    func verify(_ token: String, keySet: Data, at now: Date) async throws -> Assertion {
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: String(decoding: keySet, as: UTF8.self))
        let parsed = try await keys.verify(token, as: Assertion.self)
        try parsed.exp.verifyNotExpired(currentDate: now)
        return parsed
    }

    @Test("an assertion verifies with the key set alone and says who, for which app, for 5 minutes")
    func verifies() async throws {
        let clock = Clock()
        let signer = try await AssertionSigner(
            keys: AssertionKeys(current: ES256PrivateKey()), issuer: "https://login.example.com", clock: clock.read)
        let pass = try await signer.pass(for: Self.user, audience: Self.wiki) { "Ada" }
        let claims = try await verify(pass.assertion, keySet: signer.keySetJSON, at: clock.read())
        #expect(claims.iss.value == "https://login.example.com")
        #expect(claims.sub.value == "42")
        #expect(claims.aud.value == ["wiki.example.com"])
        #expect(claims.phoneNumber == "+14155550100")
        #expect(claims.name == "Ada" && pass.name == "Ada")
        #expect(claims.exp.value.timeIntervalSince(claims.iat.value) == 300)
        let header = try #require(pass.assertion.split(separator: ".").first)
        let fields = try JSONSerialization.jsonObject(with: Data(base64URLEncoded: String(header))!) as! [String: String]
        #expect(fields["alg"] == "ES256" && fields["kid"] == signer.keyID)
        // Expired five minutes later.
        await #expect(throws: (any Error).self) {
            try await verify(pass.assertion, keySet: signer.keySetJSON, at: clock.read() + 301)
        }
    }

    @Test("a signature from another key, or a tampered claim, does not verify")
    func forged() async throws {
        let clock = Clock()
        let signer = try await AssertionSigner(
            keys: AssertionKeys(current: ES256PrivateKey()), issuer: "https://login.example.com", clock: clock.read)
        let other = try await AssertionSigner(
            keys: AssertionKeys(current: ES256PrivateKey()), issuer: "https://login.example.com", clock: clock.read)
        let forged = try await other.pass(for: Self.user, audience: Self.wiki) { nil }.assertion
        await #expect(throws: (any Error).self) {
            try await verify(forged, keySet: signer.keySetJSON, at: clock.read())
        }
        let genuine = try await signer.pass(for: Self.user, audience: Self.wiki) { nil }.assertion
        var parts = genuine.split(separator: ".").map(String.init)
        parts[1] = parts[1].replacingOccurrences(of: "4", with: "5")
        await #expect(throws: (any Error).self) {
            try await verify(parts.joined(separator: "."), keySet: signer.keySetJSON, at: clock.read())
        }
    }

    @Test("the same person and app get the same assertion for a minute; then a new one; the name is read only then")
    func reuse() async throws {
        let clock = Clock()
        let signer = try await AssertionSigner(
            keys: AssertionKeys(current: ES256PrivateKey()), issuer: "https://login.example.com", clock: clock.read)
        let reads = NIOLockedCounter()
        let first = try await signer.pass(for: Self.user, audience: Self.wiki) {
            reads.increment()
            return nil
        }
        clock.advance(59)
        #expect(
            try await signer.pass(for: Self.user, audience: Self.wiki) {
                reads.increment()
                return nil
            } == first)
        let otherApp = try await signer.pass(for: Self.user, audience: HostName(authority: "photos.example.com")!) {
            reads.increment()
            return nil
        }
        #expect(otherApp != first)
        clock.advance(2)
        #expect(
            try await signer.pass(for: Self.user, audience: Self.wiki) {
                reads.increment()
                return nil
            } != first)
        #expect(reads.value == 3)
    }

    @Test("a name that could break a header is left out (the assertion still says who)")
    func unsafeName() async throws {
        let clock = Clock()
        let signer = try await AssertionSigner(
            keys: AssertionKeys(current: ES256PrivateKey()), issuer: "https://login.example.com", clock: clock.read)
        #expect(try await signer.pass(for: Self.user, audience: Self.wiki) { "Ada\r\nX-Admin: yes" }.name == nil)
        let emoji = String(repeating: "😀", count: 40)
        let other = User(id: 43, phone: try PhoneNumber(parsing: "5305550123"))
        #expect(try await signer.pass(for: other, audience: Self.wiki) { emoji }.name == emoji)
    }

    @Test("keys: created once in the folder (0600), rotated, the previous one listed for a day only")
    func keyFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let now = Date()
        let first = try AssertionKeys.loadOrCreate(folder: folder, now: now)
        let again = try AssertionKeys.loadOrCreate(folder: folder, now: now)
        #expect(first.current == again.current && first.previous.isEmpty)
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder + "/assertion-key.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let newID = try AssertionKeys.rotate(folder: folder)
        let rotated = try AssertionKeys.loadOrCreate(folder: folder, now: now)
        #expect(AssertionKeys.keyID(rotated.current.publicKey) == newID)
        #expect(rotated.previous == [first.current.publicKey])
        let signer = try await AssertionSigner(keys: rotated, issuer: "https://login.example.com", clock: { now })
        let listed = try JSONDecoder().decode(JWKS.self, from: signer.keySetJSON).keys.map { $0.keyIdentifier?.string }
        #expect(listed == [newID, AssertionKeys.keyID(first.current.publicKey)])
        let dayLater = try AssertionKeys.loadOrCreate(folder: folder, now: now + 86_401)
        #expect(dayLater.previous.isEmpty)
    }

    @Test("keys from the environment: PEM, and a bad one is refused with its source")
    func environmentKeys() throws {
        let key = ES256PrivateKey()
        let previous = ES256PrivateKey()
        let keys = try AssertionKeys(
            pem: key.pemRepresentation, previousPEM: previous.publicKey.pemRepresentation, source: "X")
        #expect(keys.current == key && keys.previous == [previous.publicKey])
        #expect(throws: AssertionKeys.Invalid.self) {
            try AssertionKeys(pem: "not a key", previousPEM: nil, source: "X")
        }
    }
}

/// A counter closures can bump from any task.
final class NIOLockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
