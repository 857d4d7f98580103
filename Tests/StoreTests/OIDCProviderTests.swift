import Crypto
import Encodings
import EventsCore
import Foundation
import JWTKit
import Testing

@testable import AuthCore
@testable import OIDCCore

/// The OpenID Connect provider's grants on every backend (issue 28): a code becomes tokens once;
/// presented twice, it revokes what it issued; refresh tokens rotate, and a used one coming back
/// revokes its family; PKCE is checked and never downgraded; userinfo takes only our own
/// signed, live access tokens (not `alg: none`, not HS256). Consent is ``OIDCConsentTests``,
/// back-channel logout ``OIDCLogoutTests``.
@Suite("OpenID Connect provider")
struct OIDCProviderTests: OIDCProviderFixture {
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
                let part = try #require(Data(base64URLEncoded: String(jwt.split(separator: ".")[0])))
                return try #require(try JSONSerialization.jsonObject(with: part) as? [String: Any])
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

    @Test("userinfo refuses alg none, HS256, another key's and a tampered token")
    func forgedTokens() async throws {
        try await withDatabase(.sqlite) { database in
            let provider = await provider(database, clock: TestClock())
            let (_, url) = try await signedIn(provider, database)
            let tokens = try await provider.token(try tokenRequest("mobile", try code(from: url)))
            let parts = tokens.access_token.split(separator: ".").map(String.init)
            func b64(_ text: String) -> String { Base64URL.encode(text.utf8) }
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
