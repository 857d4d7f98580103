import Crypto
import EventsCore
import GatewayCore
import Foundation
import JWTKit
import Logging
import Testing

@testable import AuthCore
@testable import OIDCCore

/// The OpenID Connect provider's grants on every backend (issue 28): a code becomes tokens once;
/// presented twice, it revokes what it issued; refresh tokens rotate, and a used one coming back
/// revokes its family; PKCE is checked and never downgraded; consent is kept per person;
/// userinfo takes only our own signed, live access tokens (not `alg: none`, not HS256).
@Suite("OpenID Connect provider")
struct OIDCProviderTests {
    static let issuer = "https://login.example.com"
    static let verifier = String(repeating: "v", count: 43)
    static let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")

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

    let registry = ClientRegistry([
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

    func tokenRequest(_ client: String, _ code: String, verifier: String? = verifier, secret: String? = nil) throws
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

    @Test("a code becomes an ID token, an access token and a refresh token, once", arguments: Backend.all)
    func codeFlow(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let clock = TestClock()
            let provider = await provider(database, clock: clock)
            let (person, url) = try await signedIn(provider, database)
            let code = try code(from: url)
            let tokens = try await provider.token(try tokenRequest("mobile", code))
            let signer = provider.signer
            let id = try await signer.verify(tokens.id_token, as: IDToken.self)
            #expect(id.iss.value == Self.issuer && id.aud.value == ["mobile"] && id.nonce == "n-1")
            #expect(id.phoneNumber == "+15305550123" && id.phoneNumberVerified == true && id.amr == ["sms"])
            #expect(id.sub.value == provider.subject(of: person.userID) && !id.sub.value.contains("5305550123"))
            let claims = try #require(try await provider.userinfo(accessToken: tokens.access_token))
            #expect(claims["phone_number"] == .text("+15305550123"))
            let refresh = try #require(tokens.refresh_token)

            // The same code again: refused, and what it issued is revoked.
            await #expect(throws: TokenError.self) { try await provider.token(try tokenRequest("mobile", code)) }
            #expect(try await provider.userinfo(accessToken: tokens.access_token) == nil)
            let again = try TokenRequest.parse(
                [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "mobile")],
                authorization: nil, registry: registry)
            await #expect(throws: TokenError.self) { try await provider.token(again) }
        }
    }

    @Test("a code read out on a call signs in as tel: the session says so, and so do the app's ID and refreshed tokens (amr)", arguments: Backend.all)
    func calledCode(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: "(530) 555-0123", session: nil)
            f.clock.advance(by: 31)
            _ = try await f.service.resendCode(session: pending.session, channel: .voice)
            let signedIn = try await f.service.verify(
                session: pending.session, pendingFor: pending.phone, codeInput: f.sms.lastCode!)
            let record = try #require(try await f.service.sessionRecord(of: signedIn.session))
            #expect(record.method == .call)
            #expect(Confirmation.isFresh(record, now: f.clock.now, within: 600))
            let person = OIDCProvider.Person(userID: signedIn.user.id, authTime: record.lastProof, method: record.method)
            guard case .redirect(let url) = try await provider.next(
                for: try authorize("mobile"), person: person, pendingSince: nil)
            else { throw CancellationError() }
            let tokens = try await provider.token(try tokenRequest("mobile", try code(from: url)))
            #expect(try await provider.signer.verify(tokens.id_token, as: IDToken.self).amr == ["tel"])
            let refreshed = try await provider.token(
                try TokenRequest.parse(
                    [("grant_type", "refresh_token"), ("refresh_token", try #require(tokens.refresh_token)),
                     ("client_id", "mobile")], authorization: nil, registry: registry))
            #expect(try await provider.signer.verify(refreshed.id_token, as: IDToken.self).amr == ["tel"])
            // A texted code is still sms.
            #expect(OIDCProvider.amr(.code) == ["sms"])
        }
    }

    @Test("a client that asks for RS256 gets RS256 ID tokens (its access tokens stay ES256); the others ES256", arguments: Backend.all)
    func rs256(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            func header(_ jwt: String) throws -> [String: Any] {
                let part = String(jwt.split(separator: ".")[0])
                let padded = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    + String(repeating: "=", count: (4 - part.count % 4) % 4)
                return try #require(try JSONSerialization.jsonObject(with: Data(base64Encoded: padded)!) as? [String: Any])
            }
            let (_, legacyURL) = try await signedIn(provider, database, client: "legacy")
            let legacy = try await provider.token(try tokenRequest("legacy", try code(from: legacyURL)))
            #expect(try header(legacy.id_token)["alg"] as? String == "RS256")
            #expect(try header(legacy.access_token)["alg"] as? String == "ES256")
            #expect(try await provider.signer.verify(legacy.id_token, as: IDToken.self).aud.value == ["legacy"])
            let (_, mobileURL) = try await signedIn(provider, database, client: "mobile")
            let mobile = try await provider.token(try tokenRequest("mobile", try code(from: mobileURL)))
            #expect(try header(mobile.id_token)["alg"] as? String == "ES256")
        }
    }

    @Test("acr_values asks for a proof within --confirm-within: an older one leads to Confirm it's you first", arguments: Backend.all)
    func acrValues(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let clock = TestClock()
            let provider = await provider(database, clock: clock)
            let request = try AuthorizationRequest.parse(
                [
                    ("client_id", "mobile"), ("redirect_uri", "http://127.0.0.1:9000/cb"), ("response_type", "code"),
                    ("scope", "openid"), ("code_challenge", Self.challenge), ("code_challenge_method", "S256"),
                    ("acr_values", "urn:example:fresh"),
                ], registry: registry)
            #expect(request.asksFreshProof)
            let (person, _) = try await signedIn(provider, database)
            let now = clock.now.timeIntervalSince1970
            let stale = OIDCProvider.Person(userID: person.userID, authTime: now - 601, method: .code)
            guard case .signIn(again: true) = try await provider.next(for: request, person: stale, pendingSince: nil)
            else { Issue.record("a stale proof answered"); return }
            // The same sign-in once Confirm it's you made it fresh for this request.
            guard case .redirect = try await provider.next(for: request, person: stale, pendingSince: stale.authTime)
            else { Issue.record("not answered after the proof"); return }
            let fresh = OIDCProvider.Person(userID: person.userID, authTime: now - 60, method: .code)
            guard case .redirect = try await provider.next(for: request, person: fresh, pendingSince: nil)
            else { Issue.record("a fresh proof was asked again"); return }
            // Without acr_values the stale sign-in is answered as before.
            guard case .redirect = try await provider.next(for: try authorize("mobile"), person: stale, pendingSince: nil)
            else { Issue.record("asked without acr_values"); return }
            // A sign-in an hour in the future (the clock was set back since) is no fresh proof.
            let future = OIDCProvider.Person(userID: person.userID, authTime: now + 3600, method: .code)
            guard case .signIn(again: true) = try await provider.next(for: request, person: future, pendingSince: nil)
            else { Issue.record("a sign-in from the future counted as fresh"); return }
        }
    }

    @Test("refresh tokens rotate; a used one coming back revokes the family", arguments: Backend.all)
    func refreshRotation(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let (_, url) = try await signedIn(provider, database)
            let first = try await provider.token(try tokenRequest("mobile", try code(from: url)))
            func refresh(_ token: String) throws -> TokenRequest {
                try TokenRequest.parse(
                    [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "mobile")],
                    authorization: nil, registry: registry)
            }
            let second = try await provider.token(try refresh(first.refresh_token!))
            #expect(second.refresh_token != first.refresh_token)
            #expect(try await provider.userinfo(accessToken: second.access_token) != nil)
            // The first one again: refused, and the second one dies with its family.
            await #expect(throws: TokenError.self) { try await provider.token(try refresh(first.refresh_token!)) }
            await #expect(throws: TokenError.self) { try await provider.token(try refresh(second.refresh_token!)) }
            #expect(try await provider.userinfo(accessToken: second.access_token) == nil)
        }
    }

    @Test("a code issued, then the clock set back an hour: expired, not an hour longer", arguments: Backend.all)
    func clockSetBack(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let clock = TestClock()
            let provider = await provider(database, clock: clock)
            let early = try code(from: try await signedIn(provider, database).1)
            clock.advance(by: -3600)
            await #expect(throws: TokenError(.invalidGrant, "The code expired.")) {
                try await provider.token(try tokenRequest("mobile", early))
            }
        }
    }

    @Test(
        "refused: another client's code, a bent redirect URI, a wrong verifier, a PKCE downgrade, an expired code",
        arguments: Backend.all)
    func refusals(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let clock = TestClock()
            let provider = await provider(database, clock: clock)
            func fresh() async throws -> String { try code(from: try await signedIn(provider, database).1) }
            let secret = "s3cret-s3cret-s3cret"
            // The mobile app's code at Grafana's client.
            await #expect(throws: TokenError(.invalidGrant, "The code was issued to another client.")) {
                try await provider.token(try tokenRequest("grafana", try await fresh(), secret: secret))
            }
            let bent = try TokenRequest.parse(
                [
                    ("grant_type", "authorization_code"), ("code", try await fresh()),
                    ("redirect_uri", "http://127.0.0.1:9000/cb/../evil"), ("client_id", "mobile"),
                    ("code_verifier", Self.verifier),
                ], authorization: nil, registry: registry)
            await #expect(throws: TokenError.self) { try await provider.token(bent) }
            await #expect(throws: TokenError.self) {
                try await provider.token(
                    try tokenRequest("mobile", try await fresh(), verifier: String(repeating: "w", count: 43)))
            }
            await #expect(throws: TokenError.self) {
                try await provider.token(try tokenRequest("mobile", try await fresh(), verifier: nil))
            }
            let late = try await fresh()
            clock.advance(by: 61)
            await #expect(throws: TokenError(.invalidGrant, "The code expired.")) {
                try await provider.token(try tokenRequest("mobile", late))
            }
            // A confidential client's code issued without PKCE, then redeemed with a verifier.
            let person = OIDCProvider.Person(userID: 1, authTime: 1_800_000_000, method: .code)
            try await database.oidc.grantConsent(user: 1, client: "grafana", scopes: [.openid], at: 1)
            guard
                case .redirect(let url) = try await provider.next(
                    for: try authorize("grafana", scope: "openid", pkce: false), person: person, pendingSince: nil)
            else { throw CancellationError() }
            await #expect(
                throws: TokenError(.invalidGrant, "code_verifier given, but the request had no code_challenge.")
            ) {
                try await provider.token(try tokenRequest("grafana", try code(from: url), secret: secret))
            }
            // A wrong secret is invalid_client.
            #expect(throws: TokenError.self) { try tokenRequest("grafana", "x", verifier: nil, secret: "wrong") }
        }
    }

    @Test(
        "consent: asked once per person and client, then remembered; revoking it revokes the tokens",
        arguments: Backend.all)
    func consent(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let person = OIDCProvider.Person(
                userID: try await signedIn(provider, database).0.userID, authTime: 1, method: .code)
            let request = try authorize("grafana", scope: "openid phone", pkce: false)
            #expect(try await provider.next(for: request, person: person, pendingSince: nil) == .consent)
            let url = try await provider.approve(request, person: person)
            #expect(url.hasPrefix("https://grafana.example.com/login/generic_oauth?code="))
            guard case .redirect = try await provider.next(for: request, person: person, pendingSince: nil) else {
                Issue.record("consent was not remembered")
                return
            }
            #expect(try await provider.consents(of: person.userID).map(\.clientID) == ["grafana"])
            let tokens = try await provider.token(
                try tokenRequest("grafana", try code(from: url), verifier: nil, secret: "s3cret-s3cret-s3cret"))
            try await database.oidc.revokeConsent(user: person.userID, client: "grafana", at: 2)
            #expect(try await provider.userinfo(accessToken: tokens.access_token) == nil)
            #expect(try await provider.next(for: request, person: person, pendingSince: nil) == .consent)
            #expect(provider.deny(request).contains("error=access_denied"))
        }
    }

    @Test("a first-party app holding a refresh token is listed, and disconnecting it ends it", arguments: Backend.all)
    func firstPartyListed(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let (person, url) = try await signedIn(provider, database)
            let tokens = try await provider.token(try tokenRequest("mobile", try code(from: url)))
            #expect(try await provider.consents(of: person.userID).map(\.clientID) == ["mobile"])
            try await provider.disconnect(user: person.userID, client: "mobile")
            #expect(try await provider.consents(of: person.userID).isEmpty)
            #expect(try await provider.userinfo(accessToken: tokens.access_token) == nil)
        }
    }

    @Test(
        "back-channel logout: the ID tokens name the browser session (sid); its end is told to the app it signed in to, with the same sub and sid, signed and typed logout+jwt; another session's end, an app without a logout address or another app's disconnection tells nothing; a deletion or a disconnection names the person",
        arguments: Backend.all)
    func backchannelLogout(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let session = SessionToken.generate()
            let sid = SessionToken.sid(ofStorageKey: session.storageKey)
            #expect(sid.count == 32 && sid != SignedInPlaces.publicID(of: session.storageKey))
            let (person, url) = try await signedIn(provider, database, client: "notes", sid: sid)
            let tokens = try await provider.token(try tokenRequest("notes", try code(from: url)))
            let id = try await provider.signer.verify(tokens.id_token, as: IDToken.self)
            #expect(id.sid == sid)
            let refreshed = try await provider.token(
                try TokenRequest.parse(
                    [("grant_type", "refresh_token"), ("refresh_token", try #require(tokens.refresh_token)),
                     ("client_id", "notes")], authorization: nil, registry: registry))
            #expect(try await provider.signer.verify(refreshed.id_token, as: IDToken.self).sid == sid)

            let notes = try #require(registry["notes"])
            let ended = Event(.signedOut, at: 1, user: person.userID, detail: "signed_out", reference: sid)
            let token = try #require(try await provider.logoutToken(for: ended, to: notes))
            let logout = try await provider.signer.verify(token, as: LogoutToken.self)
            #expect(logout.sub.value == id.sub.value && logout.sid == sid && logout.aud.value == ["notes"])
            #expect(logout.iss.value == Self.issuer && logout.events == [LogoutToken.event: [:]])
            func part(_ index: Int) throws -> [String: Any] {
                var text = String(token.split(separator: ".")[index])
                text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                while text.count % 4 != 0 { text += "=" }
                let data = try #require(Data(base64Encoded: text))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
            #expect(try part(0)["typ"] as? String == "logout+jwt")
            #expect(Set(try part(1).keys) == ["iss", "sub", "aud", "iat", "exp", "jti", "sid", "events"], "never a nonce")
            // Another browser session, an app with no logout address, another event: nothing.
            var elsewhere = ended
            elsewhere.reference = SessionToken.sid(ofStorageKey: SessionToken.generate().storageKey)
            #expect(try await provider.logoutToken(for: elsewhere, to: notes) == nil)
            #expect(try await provider.logoutToken(for: ended, to: try #require(registry["mobile"])) == nil)
            #expect(try await provider.logoutToken(for: Event(.codeSent, at: 1, user: person.userID), to: notes) == nil)
            #expect(
                try await provider.logoutToken(
                    for: Event(.appDisconnected, at: 1, user: person.userID, app: "grafana"), to: notes) == nil)
            // The person: every session of theirs at the app; a deletion only to the apps it names.
            for event in [
                Event(.accountDeleted, at: 1, user: person.userID, detail: "mobile notes"),
                Event(.appDisconnected, at: 1, user: person.userID, app: "notes"),
            ] {
                let everywhere = try await provider.signer.verify(
                    try #require(try await provider.logoutToken(for: event, to: notes)), as: LogoutToken.self)
                #expect(everywhere.sub.value == id.sub.value && everywhere.sid == nil)
            }
            for detail in [nil, "grafana", "notes2 mobile"] {
                let deleted = Event(.accountDeleted, at: 1, user: person.userID, detail: detail)
                #expect(try await provider.logoutToken(for: deleted, to: notes) == nil, "\(detail ?? "none")")
            }
            // Disconnected: told once (above), then nothing of its sessions.
            try await provider.disconnect(user: person.userID, client: "notes")
            #expect(try await provider.logoutToken(for: ended, to: notes) == nil)
        }
    }

    @Test(
        "back-channel logout outlives the purge: a grant naming a browser session is kept as long as the session can last, then goes",
        arguments: Backend.all)
    func backchannelLogoutAfterPurge(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let clock = TestClock()
            let provider = await provider(database, clock: clock)
            let sid = SessionToken.sid(ofStorageKey: SessionToken.generate().storageKey)
            // No refresh token: the grant is its code's only.
            let (person, url) = try await signedIn(provider, database, client: "notes", sid: sid, scope: "openid")
            _ = try await provider.token(try tokenRequest("notes", try code(from: url)))
            let ended = Event(.signedOut, at: 1, user: person.userID, detail: "expired", reference: sid)
            let notes = try #require(registry["notes"])
            clock.advance(by: 2 * 86_400)
            _ = try await provider.purge()
            #expect(try await provider.logoutToken(for: ended, to: notes) != nil, "kept past a day")
            clock.advance(by: 39 * 86_400)
            _ = try await provider.purge()
            #expect(try await provider.logoutToken(for: ended, to: notes) == nil, "gone after 40 days")
        }
    }

    @Test("userinfo refuses alg none, HS256, another key's and a tampered token")
    func forgedTokens() async throws {
        try await withDatabase(.sqlite) { database in
            let provider = await provider(database, clock: TestClock())
            let (_, url) = try await signedIn(provider, database)
            let tokens = try await provider.token(try tokenRequest("mobile", try code(from: url)))
            let parts = tokens.access_token.split(separator: ".").map(String.init)
            func b64(_ text: String) -> String {
                Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            }
            let none = b64(#"{"alg":"none","typ":"at+jwt"}"#) + "." + parts[1] + "."
            #expect(try await provider.userinfo(accessToken: none) == nil)
            let hs = JWTKeyCollection()
            await hs.add(hmac: HMACKey(from: String(repeating: "k", count: 32)), digestAlgorithm: .sha256, kid: "test")
            let payload = try await provider.signer.verify(tokens.access_token, as: AccessToken.self)
            #expect(try await provider.userinfo(accessToken: try await hs.sign(payload, kid: "test")) == nil)
            let other = await KeySigner.make()
            #expect(try await provider.userinfo(accessToken: try await other.sign(payload, type: "at+jwt")) == nil)
            #expect(try await provider.userinfo(accessToken: parts[0] + "." + b64("{}") + "." + parts[2]) == nil)
            #expect(try await provider.userinfo(accessToken: tokens.access_token) != nil)
        }
    }
}
