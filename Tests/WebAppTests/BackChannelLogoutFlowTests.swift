import Crypto
import Encodings
import Foundation
import HTTPTypes
import OIDCCore
import Testing
import TestSupport

@testable import WebApp

/// OpenID Connect Back-Channel Logout end to end: an app that signed in through us is posted a
/// logout token at its `backchannel_logout_uri` when that browser session ends, from the same
/// outbox as the webhooks; a session that never signed in to it tells it nothing.
@Suite("Back-channel logout, end to end")
struct BackChannelLogoutFlowTests {
    static let secret = "notes-secret-notes-secret-notes-secret"

    /// The JSON of a JWT's payload (its signature is the store suite's to check).
    static func claims(_ jwt: String) throws -> [String: Any] {
        let data = try #require(Data(base64URLEncoded: String(jwt.split(separator: ".")[1])))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("Log out posts the app a logout token naming the person and the session its ID token named; signing out a browser that never signed in to the app tells it nothing")
    func logOut() async throws {
        let receiver = Receiver(script: [])
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withServer({
            $0.publicURL = "http://localhost:8080"
            $0.oidcClients = ClientRegistry([
                OIDCClient(
                    id: "notes", name: "Notes", redirectURIs: ["https://notes.example.com/cb"],
                    secretSHA256: Data(SHA256.hash(data: Data(Self.secret.utf8))), firstParty: true,
                    backchannelLogoutURI: receiver.url)
            ])
            $0.webhookInterval = .milliseconds(50)
        }) { server in
            func signIn(_ browser: Browser, phone: String) async throws {
                _ = try await browser.get("/login")
                #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
                #expect(
                    try await browser.post("/verify", form: [("code", try server.lastCode(to: "+1" + phone))]).location
                        == "/home")
            }
            let browser = Browser(baseURL: server.baseURL)
            try await signIn(browser, phone: "5305550123")
            let redirect = try #require(
                try await browser.get(
                    "/oidc/authorize?client_id=notes&redirect_uri=https://notes.example.com/cb&response_type=code"
                        + "&scope=openid&state=s"
                ).location)
            let code = try #require(URLComponents(string: redirect)?.queryItems?.first { $0.name == "code" }?.value)
            let answer = try await browser.send(
                .POST, "/oidc/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(
                    ("grant_type=authorization_code&code=\(code)&redirect_uri=https://notes.example.com/cb"
                        + "&client_id=notes&client_secret=\(Self.secret)").utf8))
            let tokens = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            let idToken = try Self.claims(try #require(tokens["id_token"] as? String))
            let sid = try #require(idToken["sid"] as? String)

            // Another browser of the same person, never at the app: its Log out tells the app nothing.
            let other = Browser(baseURL: server.baseURL)
            try await signIn(other, phone: "5305550123")
            _ = try await other.post("/logout")
            // The sender looks again a second on, by the server's clock (which the test moves).
            server.clock.advance(by: 2)
            try await Task.sleep(for: .milliseconds(500))
            #expect(receiver.requests.isEmpty)

            _ = try await browser.post("/logout")
            server.clock.advance(by: 2)
            #expect(await eventually(within: .seconds(10)) { !receiver.requests.isEmpty })
            let request = try #require(receiver.requests.first)
            #expect(request.headers[.contentType] == "application/x-www-form-urlencoded")
            let form = URLComponents(string: "?" + request.body)?.queryItems ?? []
            let logout = try Self.claims(try #require(form.first { $0.name == "logout_token" }?.value))
            #expect(logout["sid"] as? String == sid && logout["sub"] as? String == idToken["sub"] as? String)
            #expect(((logout["aud"] as? String) ?? (logout["aud"] as? [String])?.first) == "notes")
            #expect(logout["iss"] as? String == "http://localhost:8080")
            #expect((logout["events"] as? [String: Any])?.keys.first == "http://schemas.openid.net/event/backchannel-logout")
            #expect(logout["nonce"] == nil)
            server.clock.advance(by: 2)
            try await Task.sleep(for: .milliseconds(300))
            #expect(receiver.requests.count == 1, "told once")
        }
    }
}
