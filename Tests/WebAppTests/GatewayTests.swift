import Foundation
import GatewayCore
import JWTKit
import NIOHTTP1
import Testing
import WalletCore

@testable import WebApp
/// Gateway mode over HTTP: the proxy's checks, the way back to the protected app after signing
/// in, the session cookie for the domain, and signing out of every app at once. Who may pass,
/// and what the app is told, is ``GatewayAccessTests``.
@Suite("Gateway mode, end to end")
struct GatewayTests: GatewaySteps {
    @Test("signed out: 401 for nginx, a redirect to Login with rd for Traefik and Caddy; signing in returns there")
    func signInAndReturn() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            let check = try await browser.get(
                "/auth/request", headers: Self.forwarded("wiki.example.test", "/page?x=1"))
            #expect(check.status == .unauthorized)
            #expect(check.header("Cache-Control") == "no-store")
            #expect(check.setCookie("csrf") == nil)  // the check sets no cookies of the pages
            let forward = try await browser.get(
                "/auth/forward", headers: Self.forwarded("wiki.example.test", "/page?x=1"))
            #expect(forward.status == .found)
            let location = try #require(forward.location)
            #expect(location == "http://login.example.test/login?rd=http%3A%2F%2Fwiki.example.test%2Fpage%3Fx%3D1")
            let rd = "http://wiki.example.test/page?x=1"
            let login = try await browser.get("/login?rd=" + Browser.encode(rd))
            #expect(login.body.contains("go back to <span class=\"host\">wiki.example.test</span>"))
            let verified = try await signIn(server, browser, rd: rd)
            #expect(verified.location == rd)
            let cookie = try #require(verified.setCookie("session"))
            #expect(cookie.contains("; Domain=example.test"))
            #expect(verified.setCookie("rd")?.contains("Max-Age=0") == true)  // used once
            // Signed in: 200 with who it is, for both kinds of proxy.
            for path in ["/auth/request", "/auth/forward"] {
                let passed = try await browser.get(path, headers: Self.forwarded("wiki.example.test"))
                #expect(passed.status == .ok)
                #expect(passed.header("Remote-User") == "+15305550123")
                #expect(passed.header("Remote-Name") == nil)
                #expect(passed.header("Phone-Login-Assertion") != nil)
            }
            // The next sign-in on this browser, with no rd, ends on Home again.
            _ = try await browser.post("/logout")
            #expect(try await signIn(server, browser, rd: nil).location == "/home")
        }
    }

    @Test("a signed-in person sent to Login by an app goes straight back; an address off the domain ends on Home")
    func alreadySignedIn() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, rd: nil)
            let rd = "http://wiki.example.test/x"
            #expect(try await browser.get("/login?rd=" + Browser.encode(rd)).location == rd)
            for foreign in [
                "http://evil.test/", "//evil.test", "http:/\\evil.test", "http://user@wiki.example.test/",
                "javascript:alert(1)", "http://wiki.example.test.evil.test/", "http://evilexample.test/",
            ] {
                #expect(try await browser.get("/login?rd=" + Browser.encode(foreign)).location == "/home", "\(foreign)")
            }
        }
    }

    @Test("signed in before gateway mode: going back to an app sets the session for the domain (no redirect loop)")
    func cookieFromBefore() async throws {
        try await withServer { plain in
            let browser = Browser(baseURL: plain.baseURL)
            _ = try await signIn(plain, browser, rd: nil)
            let token = try #require(browser.cookie("session"))
            // The same database, now in gateway mode: the browser's cookie is the host's alone.
            let gateway = try await TestServer.start(sharing: plain) { configuration in
                configuration.gateway = try! Gateway(
                    publicURL: "http://login.example.test", domain: Self.domain, rules: .everyone, https: false)
            }
            defer { Task { await gateway.stop() } }
            let returning = Browser(baseURL: gateway.baseURL)
            returning.setCookie("session", token)
            let back = try await returning.get("/login?rd=" + Browser.encode("http://wiki.example.test/"))
            #expect(back.location == "http://wiki.example.test/")
            #expect(
                back.setCookie("session")
                    == "session=\(token); Path=/; Domain=example.test; Max-Age=2592000; HttpOnly; SameSite=Lax")
        }
    }

    @Test(
        "two session cookies of one name (the host's from before and the domain's): the live one counts, the host's goes"
    )
    func twoCookies() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, rd: nil)
            let live = try #require(browser.cookie("session"))
            let dead = String(repeating: "A", count: live.count)
            let raw = Browser(baseURL: server.baseURL)
            var headers = Self.forwarded("wiki.example.test")
            headers.add(name: "Cookie", value: "session=\(dead); session=\(live)")
            let check = try await raw.get("/auth/request", headers: headers)
            #expect(check.status == .ok)
            let cookies = check.headers["Set-Cookie"]
            #expect(cookies.contains { $0.hasPrefix("session=; Path=/; Max-Age=0") && !$0.contains("Domain") })
            #expect(cookies.contains { $0.hasPrefix("session=\(live); Path=/; Domain=example.test") })
            // Both dead: both go.
            var deadHeaders = Self.forwarded("wiki.example.test")
            deadHeaders.add(name: "Cookie", value: "session=\(dead); session=\(dead.lowercased())")
            let signedOut = try await Browser(baseURL: server.baseURL).get("/auth/request", headers: deadHeaders)
            #expect(signedOut.status == .unauthorized)
            #expect(signedOut.headers["Set-Cookie"].count == 2)
        }
    }

    @Test("an unsafe rd is not kept: signing in then ends on Home, and it drops one kept before")
    func unsafeNotKept() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login?rd=" + Browser.encode("http://wiki.example.test/"))
            #expect(browser.cookie("rd") != nil)
            let page = try await browser.get("/login?rd=" + Browser.encode("http://evil.test/"))
            #expect(page.status == .ok)
            #expect(browser.cookie("rd") == nil)
            // A forged cookie is checked again when it is read.
            browser.setCookie("rd", Data("http://evil.test/".utf8).base64EncodedString())
            #expect(try await signIn(server, browser, rd: nil).location == "/home")
        }
    }

    @Test("a remembered phone returns to the app by \"Continue as\", with no code; Next sends a code")
    func rememberedPhone() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, rd: nil, remember: true)
            _ = try await browser.post("/logout")
            let rd = "http://wiki.example.test/"
            #expect(try await browser.get("/login?rd=" + Browser.encode(rd)).body.contains("Continue as (•••) •••-0123"))
            #expect(try await browser.post("/login/remembered").location == rd)
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login?rd=" + Browser.encode(rd))
            #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("logging out ends the session for every protected app; GET /logout only asks")
    func logout() async throws {
        try await withGateway { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, rd: nil)
            let token = try #require(browser.cookie("session"))
            let page = try await browser.get("/logout")
            #expect(page.status == .ok)
            #expect(page.body.contains("signs you out of every app on example.test"))
            #expect(try await browser.get("/auth/request", headers: Self.forwarded("wiki.example.test")).status == .ok)
            #expect(try await browser.post("/logout").location == "/login")
            // The cookie a protected app's request would still carry no longer passes.
            let stale = Browser(baseURL: server.baseURL)
            stale.setCookie("session", token)
            #expect(
                try await stale.get("/auth/request", headers: Self.forwarded("wiki.example.test")).status
                    == .unauthorized)
            #expect(try await browser.get("/logout").location == "/login")
        }
    }

    @Test("over HTTPS the session cookie is __Secure-session for the domain, and rd must be https")
    func https() async throws {
        try await withGateway(https: true) { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login?rd=" + Browser.encode("https://wiki.example.test/"))
            #expect(browser.cookie("__Host-rd") != nil)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let verified = try await browser.post("/verify", form: [("code", try server.lastCode())])
            #expect(verified.location == "https://wiki.example.test/")
            let cookie = try #require(verified.setCookie("__Secure-session"))
            #expect(cookie.contains("; Domain=example.test") && cookie.contains("; Secure"))
            #expect(
                verified.header("Content-Security-Policy")?.contains(
                    "form-action 'self' https://example.test:* https://*.example.test:*;") == true)
            #expect(
                try await browser.get("/login?rd=" + Browser.encode("http://wiki.example.test/")).location == "/home")
            let forward = try await browser.get(
                "/auth/forward", headers: ["X-Forwarded-Host": "wiki.example.test", "X-Forwarded-Proto": "http"])
            #expect(forward.status == .ok)
        }
    }

    @Test("without gateway mode there are no check endpoints and the cookie is the host's alone")
    func off() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            #expect(
                try await browser.get("/auth/request", headers: Self.forwarded("wiki.example.test")).status == .notFound
            )
            #expect(try await browser.get("/.well-known/jwks.json").status == .notFound)
            _ = try await browser.get("/login?rd=" + Browser.encode("http://wiki.example.test/"))
            #expect(browser.cookie("rd") == nil)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let verified = try await browser.post("/verify", form: [("code", try server.lastCode())])
            #expect(verified.location == "/home")
            #expect(verified.setCookie("session")?.contains("Domain") == false)
            _ = try await browser.post("/logout")
            #expect(!(try await browser.get("/login").body.contains("go back to")))
        }
    }
}
