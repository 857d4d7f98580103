import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// "Remember this phone for 30 days" over HTTP: a choice the person makes, the device cookie,
/// "Continue as (•••) •••-0123" as the one way in without a code (never a plain Next), Log out
/// that says so and offers to forget the phone, and every way it must fall back to a code.
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

    @Test("Verify offers the box unticked; signing in with it ticked sets an HttpOnly device cookie for 30 days")
    func checkboxAndCookie() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login")
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let page = try await browser.get("/verify")
            #expect(page.body.contains(#"<input type="checkbox" name="remember" value="on">"#))
            #expect(page.body.contains("Remember this phone for 30 days"))
            let verified = try await browser.post(
                "/verify", form: [("code", try server.lastCode()), ("remember", "on")])
            let cookie = try #require(verified.setCookie("device"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Max-Age=2592000"))
        }
    }

    @Test("after Log out: \"You've signed out\", and Next with the remembered number sends a code, never Home")
    func nextNeverWalksIn() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            let out = try await browser.post("/logout")
            #expect(out.location == "/login")
            let login = try await browser.get("/login")
            #expect(login.body.contains("You&#39;ve signed out.") || login.body.contains("You've signed out."))
            // The whole number is not on the page for the next person; the last four are.
            #expect(!login.body.contains("(530) 555-0123"))
            #expect(login.body.contains("Continue as (•••) •••-0123"))
            #expect(login.body.contains("Also forget this phone"))
            // Said once: a reload no longer says it.
            let reloaded = try await browser.get("/login")
            #expect(!reloaded.body.contains("signed out."))
            #expect(reloaded.body.contains("Forget this phone"))
            // Typing the remembered number and Next: a code, as for anyone.
            #expect(try await browser.post("/login", form: [("phone", "(530) 555-0123")]).location == "/verify")
            #expect(try server.outbox().count == 2)
            #expect(try await browser.get("/home").location == "/login")
        }
    }

    @Test("\"Continue as\" goes to Home with no text; the token is rotated, and an old copy gets a code")
    func continueAsGoesHome() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            let first = try #require(browser.cookie("device"))
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login")
            let again = try await browser.post("/login/remembered")
            #expect(again.location == "/home")
            #expect(try server.outbox().count == 1)
            #expect(try await browser.get("/home").status == .ok)
            let rotated = try #require(browser.cookie("device"))
            #expect(rotated != first)
            // Reload or Back onto the POST's address: Home, not a resubmission.
            #expect(try await browser.get("/login/remembered").location == "/home")
            // A copy of the old cookie no longer works: Login with the number, a code.
            let copy = Browser(baseURL: server.baseURL)
            copy.setCookie("device", first)
            copy.setCookie("last-phone", "+15305550123")
            _ = try await copy.get("/login")
            let refused = try await copy.post("/login/remembered")
            #expect(refused.status == .ok)
            #expect(refused.body.contains("no longer remembered"))
            #expect(refused.setCookie("device")?.contains("Max-Age=0") == true)
            #expect(try await copy.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("an unticked box, a tampered cookie, no remembered number, or 30 days later: no way in without a code")
    func fallsBackToACode() async throws {
        try await withServer { server in
            let unticked = Browser(baseURL: server.baseURL)
            let response = try await signIn(server, unticked, remember: false, phone: "4155550188")
            #expect(response.setCookie("device") == nil)
            _ = try await unticked.post("/logout")
            let login = try await unticked.get("/login")
            #expect(!login.body.contains("Continue as"))
            // Log out on a phone that is not remembered leaves no number behind.
            #expect(!login.body.contains("555-0188"))
            #expect(login.setCookie("last-phone") == nil && unticked.cookie("last-phone") == nil)

            let tampered = Browser(baseURL: server.baseURL)
            tampered.setCookie("device", String(repeating: "A", count: 43))
            tampered.setCookie("last-phone", "+15305550123")
            _ = try await tampered.get("/login")
            #expect(try await tampered.post("/login/remembered").location == nil)
            #expect(try await tampered.get("/home").location == "/login")

            // A device cookie with no number beside it offers nothing to continue as.
            let bare = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, bare, remember: true, phone: "4155550166")
            _ = try await bare.post("/logout")
            bare.setCookie("last-phone", "")
            #expect(!(try await bare.get("/login").body.contains("Continue as")))
            #expect(try await bare.post("/login/remembered").location == nil)

            let later = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, later, remember: true, phone: "4155550177")
            _ = try await later.post("/logout")
            server.clock.advance(by: 30 * 86_400 + 1)
            _ = try await later.get("/login")
            #expect(try await later.post("/login/remembered").location == nil)
            #expect(try await later.post("/login", form: [("phone", "4155550177")]).location == "/verify")
        }
    }

    @Test("\"Also forget this phone\" after Log out forgets it: nothing to continue as, the owner's number needs a code")
    func forgetAfterLogOut() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login")
            let forgot = try await browser.post("/login/forget")
            #expect(forgot.setCookie("device")?.contains("Max-Age=0") == true)
            #expect(browser.cookie("device") == nil)
            let login = try await browser.get("/login")
            #expect(!login.body.contains("Continue as"))
            #expect(!login.body.contains("(530)") && !login.body.contains("•••"))
            #expect(try await browser.post("/login/remembered").location == nil)
            #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
            // Its account's activity says so (signed in again to read it).
            _ = try await browser.post("/verify", form: [("code", try server.lastCode())])
            let activity = try await browser.get("/account/activity")
            #expect(activity.body.contains("A remembered phone was forgotten"))
            #expect(activity.body.contains("A phone was remembered, to sign in without a code"))
        }
    }

    @Test("signing in again with the box unticked forgets the phone remembered before")
    func untickedForgets() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await signIn(server, browser, remember: true)
            _ = try await browser.post("/logout")
            server.clock.advance(by: 31)
            let again = try await signIn(server, browser, remember: false)
            #expect(again.setCookie("device")?.contains("Max-Age=0") == true)
            _ = try await browser.post("/logout")
            let login = try await browser.get("/login")
            #expect(!login.body.contains("Continue as"))
            #expect(try await browser.post("/login/remembered").location == nil)
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
