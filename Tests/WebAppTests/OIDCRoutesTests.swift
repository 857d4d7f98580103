import Foundation
import NIOHTTP1
import OIDCCore
import Testing

@testable import WebApp

/// The provider's routes as mounted (issue 28): off without `--oidc-clients`; with it, the
/// discovery document names this app as the issuer, and the token endpoint's refusals are
/// RFC 6749's JSON, never a page.
@Suite("OpenID Connect routes")
struct OIDCRoutesTests {
    static func on(_ configuration: inout AppConfiguration) {
        configuration.publicURL = "http://localhost:8080"
        configuration.oidcClients = ClientRegistry([
            OIDCClient(id: "app", name: "App", redirectURIs: ["https://app.example.com/cb"], secretSHA256: nil)
        ])
    }

    @Test("off: no discovery, no endpoints")
    func off() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let discovery = try await browser.get("/.well-known/openid-configuration")
            #expect(discovery.status == .notFound)
            let authorize = try await browser.get("/oidc/authorize?client_id=app")
            #expect(authorize.status == .notFound)
        }
    }

    @Test("on: discovery, a page for an unknown client, JSON errors at the token endpoint, the JWKS")
    func on() async throws {
        try await withServer(Self.on) { server in
            let browser = Browser(baseURL: server.baseURL)
            let discovery = try await browser.get("/.well-known/openid-configuration")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(discovery.body.utf8)) as? [String: Any])
            #expect(document["issuer"] as? String == "http://localhost:8080")
            #expect(document["token_endpoint"] as? String == "http://localhost:8080/oidc/token")
            let unknown = try await browser.get("/oidc/authorize?client_id=nobody&redirect_uri=https://evil.example/")
            #expect(unknown.status == .badRequest)
            #expect(unknown.location == nil)
            #expect(
                unknown.body.contains("This sign-in link names an app we don&#39;t know")
                    || unknown.body.contains("an app we don't know"))
            let token = try await browser.send(
                .POST, "/oidc/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(
                    "grant_type=authorization_code&code=x&redirect_uri=https://app.example.com/cb&client_id=app".utf8))
            #expect(token.status == .badRequest)
            #expect(
                token.body == #"{"error":"invalid_grant","error_description":"The code is unknown, used or expired."}"#)
            #expect(token.header("Cache-Control") == "no-store")
            let keys = try await browser.get("/.well-known/jwks.json")
            #expect(
                keys.status == .ok && keys.body.contains(#""alg":"ES256""#) || keys.body.contains(#""crv":"P-256""#))
            let userinfo = try await browser.get("/oidc/userinfo")
            #expect(userinfo.status == .unauthorized)
            #expect(userinfo.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        }
    }

    @Test("an app's sign-in in progress is for the browser that started it, and for 10 minutes by the server's clock")
    func continuing() async throws {
        try await withServer(Self.on) { server in
            let authorize =
                "/oidc/authorize?client_id=app&redirect_uri=https://app.example.com/cb&response_type=code&scope=openid"
                + "&state=s&code_challenge_method=S256&code_challenge=" + String(repeating: "a", count: 43)
            func signIn(_ browser: Browser, phone: String) async throws -> String? {
                _ = try await browser.get("/login")
                #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
                return try await browser.post("/verify", form: [("code", try server.lastCode(to: "+1" + phone))]).location
            }
            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get(authorize).location == "/login")
            let value = try #require(browser.cookie("oidc-continue"))
            #expect(browser.cookie("oidc-browser") != nil)

            // Copied into another browser, it steers nothing there.
            let other = Browser(baseURL: server.baseURL)
            other.setCookie("oidc-continue", value)
            #expect(try await signIn(other, phone: "5305550199") == "/home")

            // In its own browser it leads back to the app, while it is young.
            #expect(try await signIn(browser, phone: "5305550123")?.hasPrefix("/oidc/authorize?") == true)

            // Started again and kept past 10 minutes (a browser that ignores Max-Age): ignored.
            _ = try await browser.post("/logout")
            #expect(try await browser.get(authorize).location == "/login")
            server.clock.advance(by: 11 * 60)
            #expect(try await signIn(browser, phone: "5305550123") == "/home")
        }
    }
}

