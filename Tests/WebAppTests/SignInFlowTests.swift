import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// The sign-in pages driven over real HTTP with a cookie jar, as a browser would: the way in,
/// the session it makes and ends, and answers that tell no one which numbers are known.
@Suite("Sign-in flow over HTTP")
struct SignInFlowTests: SignInSteps {
    @Test("the happy path: phone, code from the outbox, home; earlier pages then redirect to home")
    func happyPath() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)

            let root = try await browser.get("/")
            #expect(root.status == .seeOther)
            #expect(root.location == "/login")

            let loginPage = try await browser.get("/login")
            #expect(loginPage.status == .ok)
            #expect(loginPage.header("Content-Type") == "text/html; charset=utf-8")
            #expect(loginPage.header("Cache-Control") == "no-store")
            #expect(loginPage.body.contains(#"name="phone" type="tel""#))
            #expect(loginPage.body.contains(#"autocomplete="tel-national""#))
            #expect(
                loginPage.body.contains(#"<button type="submit" id="next-button" data-busy="Sending…">Next</button>"#))
            // An anonymous visit creates no session.
            #expect(loginPage.setCookie("session") == nil)

            let sent = try await login(browser)
            #expect(sent.status == .seeOther)
            #expect(sent.location == "/verify")
            let pendingCookie = try #require(sent.setCookie("session"))
            #expect(pendingCookie.contains("HttpOnly"))
            #expect(pendingCookie.contains("SameSite=Lax"))
            #expect(pendingCookie.contains("Path=/"))
            #expect(!pendingCookie.contains("Secure"))
            let pendingToken = try #require(browser.cookie("session"))
            #expect(pendingToken.count == 43)

            let texts = try server.outbox()
            #expect(texts.count == 1)
            #expect(texts[0].to == "+15305550123")
            let code = try server.lastCode()
            #expect(texts[0].body == "\(code) is your verification code.\n\n@example.com #\(code)")

            let verifyPage = try await browser.get("/verify")
            #expect(verifyPage.status == .ok)
            #expect(verifyPage.header("Cache-Control") == "no-store")
            #expect(
                verifyPage.body.contains(
                    #"Enter the 6-digit code we sent to<span class="nowrap"> (530) 555-0123</span>"#))
            for index in 1...6 {
                #expect(verifyPage.body.contains(#"name="d\#(index)" type="text" inputmode="numeric""#))
            }
            #expect(verifyPage.body.contains(#"autocomplete="one-time-code""#))
            #expect(verifyPage.body.components(separatedBy: "one-time-code").count == 2)
            #expect(verifyPage.body.contains(#"action="/verify/resend""#))
            #expect(verifyPage.body.contains(#"<a href="/login">"#))
            #expect(verifyPage.body.contains(#"id="otp-error""#))

            let verified = try await submitCode(browser, code)
            #expect(verified.status == .seeOther)
            #expect(verified.location == "/home")
            let signedInCookie = try #require(verified.setCookie("session"))
            #expect(signedInCookie.contains("Max-Age=2592000"))
            let signedInToken = try #require(browser.cookie("session"))
            #expect(signedInToken != pendingToken)

            let home = try await browser.get("/home")
            #expect(home.status == .ok)
            #expect(home.header("Cache-Control") == "no-store")
            #expect(home.body.contains("(530) 555-0123"))
            #expect(home.body.contains(#"action="/logout""#))

            for path in ["/", "/login", "/verify"] {
                let response = try await browser.get(path)
                #expect(response.status == .seeOther, "GET \(path)")
                #expect(response.location == "/home", "GET \(path)")
            }
            for path in ["/login", "/verify", "/verify/resend"] {
                let response = try await browser.post(path, form: [("phone", "5305550123")])
                #expect(response.location == "/home", "POST \(path)")
            }

            // The old pending cookie is dead: replaying it gets nowhere (no session fixation).
            let attacker = Browser(baseURL: server.baseURL)
            attacker.setCookie("session", pendingToken)
            let replay = try await attacker.get("/home")
            #expect(replay.location == "/login")
        }
    }

    @Test("Verify, Home and Verify POSTs without a session go to Login")
    func redirectsWhenAnonymous() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            for path in ["/verify", "/home"] {
                let response = try await browser.get(path)
                #expect(response.status == .seeOther, "GET \(path)")
                #expect(response.location == "/login", "GET \(path)")
            }
            for path in ["/verify", "/verify/resend", "/logout"] {
                let response = try await browser.post(path, form: [("d1", "1")])
                #expect(response.status == .seeOther, "POST \(path)")
                #expect(response.location == "/login", "POST \(path)")
            }
            // A forged or unknown session cookie is removed and treated as no session.
            browser.setCookie("session", String(repeating: "A", count: 43))
            let forged = try await browser.get("/home")
            #expect(forged.location == "/login")
            #expect(forged.setCookie("session")?.contains("Max-Age=0") == true)
            #expect(browser.cookie("session") == nil)
        }
    }

    @Test("logout ends the session on the server")
    func logout() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            _ = try await submitCode(browser, try server.lastCode())
            let token = try #require(browser.cookie("session"))
            let out = try await browser.post("/logout")
            #expect(out.status == .seeOther)
            #expect(out.location == "/login")
            #expect(out.setCookie("session")?.contains("Max-Age=0") == true)
            #expect(try await browser.get("/home").location == "/login")
            // The old cookie is no good on the server either.
            let thief = Browser(baseURL: server.baseURL)
            thief.setCookie("session", token)
            #expect(try await thief.get("/home").location == "/login")
        }
    }

    @Test("over HTTPS the cookie is __Host- and Secure, and HSTS is sent")
    func httpsCookies() async throws {
        try await withServer({ $0.https = true }) { server in
            let browser = Browser(baseURL: server.baseURL)
            let response = try await login(browser)
            let cookie = try #require(response.setCookie("__Host-session"))
            #expect(cookie.contains("Secure"))
            #expect(cookie.contains("Path=/"))
            #expect(response.header("Strict-Transport-Security") != nil)
        }
    }

    @Test("no enumeration: a known number and a new one get the same answers")
    func noEnumeration() async throws {
        try await withServer { server in
            let known = Browser(baseURL: server.baseURL)
            try await login(known, "(530) 555-0123")
            _ = try await submitCode(known, try server.lastCode())

            func answers(_ phone: String) async throws -> [String] {
                let browser = Browser(baseURL: server.baseURL)
                let sent = try await login(browser, phone)
                let page = try await browser.get("/verify")
                let wrong = try await submitCode(browser, "000000")
                // The CSRF field is masked afresh on every page (CSRFTests.maskedPerPage).
                func normalised(_ text: String) -> String {
                    text.replacing(/name="csrf" value="[^"]*"/, with: #"name="csrf" value="TOKEN""#)
                        .replacingOccurrences(of: phone, with: "PHONE")
                }
                return [
                    "\(sent.status.code) \(sent.location ?? "")", "\(page.status.code)", normalised(page.body),
                    "\(wrong.status.code)", normalised(wrong.body),
                ]
            }
            server.clock.advance(by: 31)
            let forKnown = try await answers("(530) 555-0123")
            let forNew = try await answers("(415) 555-0199")
            #expect(forKnown == forNew)
        }
    }
}
