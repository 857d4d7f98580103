import Foundation
import GatewayCore
import JWTKit
import NIOHTTP1
import Testing
import WalletCore

@testable import WebApp
/// Gateway mode over HTTP: who may pass to a protected app (the rules, the forwarded host
/// inside the domain), and the signed assertion the app is handed.
@Suite("Gateway mode: who may pass")
struct GatewayAccessTests: GatewaySteps {
    @Test("the assertion verifies with the published key set, for the app that asked, and carries the name")
    func assertion() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, rd: nil)
            _ = try await browser.post("/home/name", form: [("name", "Ada Lovelace"), ("key", Wallet.newKey())])
            let passed = try await browser.get("/auth/request", headers: Self.forwarded("photos.example.test"))
            #expect(passed.header("Remote-Name") == "Ada Lovelace")
            let keySet = try await browser.get("/.well-known/jwks.json")
            #expect(keySet.status == .ok)
            #expect(keySet.header("Content-Type") == "application/json")
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: keySet.body)
            let claims = try await keys.verify(try #require(passed.header("Phone-Login-Assertion")), as: Assertion.self)
            #expect(claims.aud.value == ["photos.example.test"])
            #expect(claims.iss.value == "http://login.example.test")
            #expect(claims.phoneNumber == "+15305550123")
            #expect(claims.name == "Ada Lovelace")
            #expect(claims.exp.value.timeIntervalSince(claims.iat.value) <= 300)
        }
    }

    @Test("the rules: a number not allowed gets 403 (a page for Traefik and Caddy); an area code lets its numbers in")
    func rules() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, rd: nil)
            #expect(
                try await browser.get("/auth/request", headers: Self.forwarded("admin.example.test")).status
                    == .forbidden)
            let page = try await browser.get("/auth/forward", headers: Self.forwarded("admin.example.test"))
            #expect(page.status == .forbidden)
            #expect(page.body.contains(#"open <span class="host">admin.example.test</span></h1>"#))
            #expect(page.body.contains("(530) 555-0123"))
            #expect(page.body.contains(#"href="http://login.example.test/logout""#))
            #expect(page.header("Remote-User") == nil && page.header("Phone-Login-Assertion") == nil)
            // Shown on the protected host by the proxy: its style sheet comes from this app.
            #expect(page.body.contains(#"<link rel="stylesheet" href="http://login.example.test/public/app."#))
            #expect(
                page.header("Content-Security-Policy")?.contains("style-src 'self' http://login.example.test;") == true
                    && page.header("Content-Security-Policy")?.contains("script-src 'self' http://login.example.test 'sha256-") == true)
            #expect(
                try await browser.get("/auth/request", headers: Self.forwarded("photos.example.test")).status == .ok)
        }
    }

    @Test(
        "a host the proxy does not name once, or names outside the domain, is refused, signed in or not",
        arguments: [[:], ["X-Forwarded-Host": "evil.test"], ["X-Forwarded-Host": "example.test.evil.test"]]
            as [HTTPHeaders])
    func foreignHost(headers: HTTPHeaders) async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get("/auth/request", headers: headers).status == .forbidden)
            #expect(try await browser.get("/auth/forward", headers: headers).status == .forbidden)
            _ = try await signIn(server, browser, rd: nil)
            let signedIn = try await browser.get("/auth/request", headers: headers)
            #expect(signedIn.status == .forbidden)
            #expect(signedIn.header("Remote-User") == nil)
            var twice = HTTPHeaders()
            twice.add(name: "X-Forwarded-Host", value: "wiki.example.test")
            twice.add(name: "X-Forwarded-Host", value: "admin.example.test")
            #expect(try await browser.get("/auth/request", headers: twice).status == .forbidden)
        }
    }
}
