import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// "Remember this phone for 30 days" over HTTP: the device cookie, Login straight to Home,
/// and every way it must fall back to a code.
@Suite("Remembered device, end to end")
struct RememberedDeviceFlowTests {
    /// Signs in through Login and Verify; `remember` is the checkbox.
    func signIn(_ server: TestServer, _ browser: Browser, remember: Bool, phone: String = "5305550123")
        async throws -> TestResponse
    {
        _ = try await browser.get("/login")
        #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
        let e164 = "+1" + phone
        let verified = try await browser.post(
            "/verify", form: [("code", try server.lastCode(to: e164))] + (remember ? [("remember", "on")] : []))
        #expect(verified.location == "/home")
        return verified
    }

    @Test("Verify offers the box ticked; signing in with it sets an HttpOnly device cookie for 30 days")
    func checkboxAndCookie() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login")
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let page = try await browser.get("/verify")
            #expect(page.body.contains(#"<input type="checkbox" name="remember" value="on" checked>"#))
            #expect(page.body.contains("Remember this phone for 30 days"))
            let verified = try await browser.post(
                "/verify", form: [("code", try server.lastCode()), ("remember", "on")])
            let cookie = try #require(verified.setCookie("device"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Max-Age=2592000"))
        }
    }

    @Test("the same number on a remembered browser goes straight to Home with no text; the token is rotated")
    func straightToHome() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            let first = try #require(browser.cookie("device"))
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login")
            let again = try await browser.post("/login", form: [("phone", "(530) 555-0123")])
            #expect(again.location == "/home")
            #expect(try server.outbox().count == 1)
            #expect(try await browser.get("/home").status == .ok)
            let rotated = try #require(browser.cookie("device"))
            #expect(rotated != first)
            // A copy of the old cookie no longer works: the code flow instead.
            let copy = Browser(baseURL: server.baseURL)
            copy.setCookie("device", first)
            _ = try await copy.get("/login")
            #expect(try await copy.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("another number, an unticked box, a tampered cookie, or 30 days later: a code as usual")
    func fallsBackToACode() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login")
            #expect(try await browser.post("/login", form: [("phone", "4155550199")]).location == "/verify")

            let unticked = Browser(baseURL: server.baseURL)
            let response = try await signIn(server, unticked, remember: false, phone: "4155550188")
            #expect(response.setCookie("device") == nil)

            let tampered = Browser(baseURL: server.baseURL)
            tampered.setCookie("device", String(repeating: "A", count: 43))
            _ = try await tampered.get("/login")
            #expect(try await tampered.post("/login", form: [("phone", "5305550123")]).location == "/verify")

            let later = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, later, remember: true, phone: "4155550177")
            _ = try await later.post("/logout")
            server.clock.advance(by: 30 * 86_400 + 1)
            _ = try await later.get("/login")
            #expect(try await later.post("/login", form: [("phone", "4155550177")]).location == "/verify")
        }
    }

    @Test("\"Not you?\" forgets the remembered phone too: the owner's number then needs a code")
    func notYouForgetsTheDevice() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login")
            let forgot = try await browser.post("/login/forget")
            #expect(forgot.setCookie("device")?.contains("Max-Age=0") == true)
            #expect(browser.cookie("device") == nil)
            _ = try await browser.get("/login")
            #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("with --https the cookie is __Host-device and Secure")
    func httpsName() async throws {
        try await withServer({ $0.https = true }) { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login")
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let verified = try await browser.post(
                "/verify", form: [("code", try server.lastCode()), ("remember", "on")])
            let cookie = try #require(verified.setCookie("__Host-device"))
            #expect(cookie.contains("Secure"))
        }
    }
}
