import Crypto
import Encodings
import Foundation
import GatewayCore
import JWTKit
import Logging
import Testing

@testable import AuthCore
@testable import OIDCCore

/// ES256 with one key, as the app's signer does, and RS256 with the app's RSA key (made once,
/// in a temporary folder, as on first start).
struct KeySigner: TokenSigner {
    let keys: JWTKeyCollection
    let keyID = "test"
    let signsRS256 = true
    static let rsa: JWTKit.Insecure.RSA.PrivateKey = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-rsa-\(UUID())").path
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try! RSASigningKey.loadOrCreate(folder: folder)
    }()

    static func make() async -> KeySigner {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: "test"))
        await keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: "rsa"))
        return KeySigner(keys: keys)
    }

    func sign<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String {
        try await keys.sign(payload, kid: JWKIdentifier(string: keyID), header: ["typ": .string(type)])
    }

    func signRS256<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String {
        try await keys.sign(payload, kid: JWKIdentifier(string: "rsa"), header: ["typ": .string(type)])
    }

    func verify<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async throws -> Payload {
        try await keys.verify(token, as: payload)
    }
}

/// What the OpenID Connect provider's suites share: the issuer, four clients (Grafana
/// confidential; three first-party apps, one with RS256 ID tokens, one with a back-channel
/// logout address), PKCE's verifier, and the steps of a sign-in through the provider.
protocol OIDCProviderFixture {}

extension OIDCProviderFixture {
    static var issuer: String { "https://login.example.com" }
    static var verifier: String { String(repeating: "v", count: 43) }
    static var challenge: String { Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString() }

    var registry: ClientRegistry {
        ClientRegistry([
            OIDCClient(
                id: "grafana", name: "Grafana", redirectURIs: ["https://grafana.example.com/login/generic_oauth"],
                secretSHA256: Data(SHA256.hash(data: Data("s3cret-s3cret-s3cret".utf8)))),
            OIDCClient(
                id: "mobile", name: "Mobile", redirectURIs: ["http://127.0.0.1:9000/cb"], secretSHA256: nil,
                firstParty: true),
            OIDCClient(
                id: "legacy", name: "Legacy", redirectURIs: ["http://127.0.0.1:9001/cb"], secretSHA256: nil,
                firstParty: true, idTokenRS256: true),
            OIDCClient(
                id: "notes", name: "Notes", redirectURIs: ["http://127.0.0.1:9002/cb"], secretSHA256: nil,
                firstParty: true, backchannelLogoutURI: "http://127.0.0.1:9002/backchannel"),
        ])
    }

    func provider(_ database: TestDatabase, clock: TestClock) async -> OIDCProvider {
        OIDCProvider(
            issuer: Self.issuer, registry: registry, store: database.oidc, signer: await KeySigner.make(),
            subjectKey: SymmetricKey(size: .bits256), logger: Logger(label: "test"), clock: { clock.now })
    }

    func authorize(_ client: String, scope: String = "openid phone offline_access", pkce: Bool = true) throws
        -> AuthorizationRequest
    {
        let redirect = registry[client]!.redirectURIs[0]
        return try AuthorizationRequest.parse(
            [
                ("client_id", client), ("redirect_uri", redirect), ("response_type", "code"), ("scope", scope),
                ("state", "xyz"), ("nonce", "n-1"),
            ]
                + (pkce ? [("code_challenge", Self.challenge), ("code_challenge_method", "S256")] : []),
            registry: registry)
    }

    func code(from url: String) throws -> String {
        let items = URLComponents(string: url)?.queryItems ?? []
        #expect(items.first { $0.name == "iss" }?.value == Self.issuer)
        #expect(items.first { $0.name == "state" }?.value == "xyz")
        return try #require(items.first { $0.name == "code" }?.value)
    }

    func tokenRequest(_ client: String, _ code: String, verifier: String? = Self.verifier, secret: String? = nil) throws
        -> TokenRequest
    {
        try TokenRequest.parse(
            [
                ("grant_type", "authorization_code"), ("code", code),
                ("redirect_uri", registry[client]!.redirectURIs[0]),
                ("client_id", client),
            ] + (verifier.map { [("code_verifier", $0)] } ?? [])
                + (secret.map { [("client_secret", $0)] } ?? []),
            authorization: nil, registry: registry)
    }

    /// Signs the person in through the provider for `client`; the code's redirect.
    func signedIn(
        _ provider: OIDCProvider, _ database: TestDatabase, client: String = "mobile", sid: String? = nil,
        scope: String = "openid phone offline_access"
    ) async throws -> (OIDCProvider.Person, String) {
        let f = ServiceFixture(database)
        let pending = try await f.service.requestCode(phoneInput: "(530) 555-0123", session: nil)
        let user = try await f.service.verify(
            session: pending.session, pendingFor: pending.phone, codeInput: f.sms.lastCode!
        ).user
        let person = OIDCProvider.Person(userID: user.id, authTime: 1_800_000_000, method: .code, sid: sid)
        guard
            case .redirect(let url) = try await provider.next(
                for: try authorize(client, scope: scope), person: person, pendingSince: nil)
        else { throw CancellationError() }
        return (person, url)
    }
}
