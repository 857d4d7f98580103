import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// The sign-in pages driven over real HTTP with a cookie jar, as a browser would.
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

    @Test(
        "invalid, empty and untexted numbers get 422 with the form, the typed text and the error",
        arguments: [
            ("", "Please enter your phone number."),
            ("   ", "Please enter your phone number."),
            ("(911) 555-0123", "Your phone number is invalid."),
            ("+44 20 7946 0958", "Your phone number is invalid."),
            ("530-FLOWERS", "Your phone number is invalid."),
            ("12345", "Your phone number is invalid. It has 5 digits; a US number has 10."),
            ("530 555 012", "Your phone number is invalid. It has 9 digits; a US number has 10."),
            ("(999) 555-0123", "Your phone number is invalid."),
            ("(876) 210-1234", "We can only send codes to US phone numbers."),
            ("(800) 234-5678", "We can only send codes to US phone numbers."),
        ])
    func invalidPhone(_ input: String, _ message: String) async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let response = try await login(browser, input)
            #expect(response.status == .unprocessableEntity)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.body.contains(#"role="alert">\#(message)</p>"#))
            #expect(response.body.contains(#"value="\#(input)""#))
            #expect(response.body.contains(#"aria-invalid="true""#))
            #expect(response.setCookie("session") == nil)
            #expect(try server.outbox().isEmpty)
        }
    }

    @Test("typed text is escaped when shown again")
    func escapesInput() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let response = try await login(browser, #""><script>alert(1)</script>"#)
            #expect(response.status == .unprocessableEntity)
            #expect(!response.body.contains("<script>alert(1)"))
            #expect(response.body.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        }
    }

    @Test("a wrong code gives 422 with empty boxes, then the right code signs in")
    func wrongThenRight() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let code = try server.lastCode()
            let wrong = try await submitCode(browser, wrongCode(for: code))
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.header("Cache-Control") == "no-store")
            #expect(wrong.body.contains(#"role="alert">Incorrect verification code. You have 4 tries left.</p>"#))
            // All six boxes come back empty: the only values on the page are the two forms' CSRF
            // tokens and the "remember this phone" box's.
            #expect(wrong.body.components(separatedBy: "value=").count - 1 == 3)
            #expect(!wrong.body.contains(#"name="d1" value"#))
            #expect(wrong.body.contains(#"name="d6""#))

            // One field `code` works too, with the spaces people type.
            let right = try await browser.post(
                "/verify", form: [("code", String(code.prefix(3)) + " " + code.suffix(3))])
            #expect(right.status == .seeOther)
            #expect(right.location == "/home")
        }
    }

    @Test("an expired code is refused with its own message")
    func expired() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let code = try server.lastCode()
            server.clock.advance(by: 601)
            let response = try await submitCode(browser, code)
            #expect(response.status == .unprocessableEntity)
            #expect(response.body.contains(#"role="alert">Your code expired</p>"#))
            // Resend brings a fresh code that works.
            let resent = try await browser.post("/verify/resend")
            #expect(resent.location == "/verify")
            let fresh = try server.lastCode()
            #expect(try await submitCode(browser, fresh).location == "/home")
        }
    }

    @Test("five wrong codes kill the code, even the right one is refused after")
    func fiveWrong() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let code = try server.lastCode()
            for attempt in 1...4 {
                let response = try await submitCode(browser, wrongCode(for: code))
                #expect(response.status == .unprocessableEntity)
                #expect(response.body.contains("Incorrect verification code"), "attempt \(attempt)")
            }
            let fifth = try await submitCode(browser, wrongCode(for: code))
            #expect(fifth.status == .unprocessableEntity)
            #expect(fifth.body.contains("Too many incorrect codes. Please request a new code."))
            let right = try await submitCode(browser, code)
            #expect(right.status == .unprocessableEntity)
            #expect(right.body.contains("Too many incorrect codes. Please request a new code."))
        }
    }

    @Test("resend: refused for 30 seconds, then a new code replaces the old one")
    func resend() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let first = try server.lastCode()

            server.clock.advance(by: 10)
            let early = try await browser.post("/verify/resend")
            #expect(early.status == .tooManyRequests)
            #expect(early.header("Retry-After") == "20")
            #expect(early.body.contains("Please wait 20 seconds before requesting a new code."))
            #expect(try server.outbox().count == 1)

            server.clock.advance(by: 20)
            let resent = try await browser.post("/verify/resend")
            #expect(resent.status == .seeOther)
            #expect(resent.location == "/verify")
            #expect(try server.outbox().count == 2)
            let second = try server.lastCode()

            let page = try await browser.get("/verify")
            #expect(page.body.contains("A new code was sent to (530) 555-0123."))
            // The notice shows once.
            let again = try await browser.get("/verify")
            #expect(!again.body.contains("A new code was sent"))

            if first != second {
                let old = try await submitCode(browser, first)
                #expect(old.status == .unprocessableEntity)
            }
            #expect(try await submitCode(browser, second).location == "/home")
        }
    }

    @Test("Resend tapped seconds after the first text sends nothing and says the code is on its way, not that a new one was sent")
    func resendAtOnce() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let first = try server.lastCode()
            server.clock.advance(by: 2)
            let tapped = try await browser.post("/verify/resend")
            #expect(tapped.location == "/verify")
            #expect(try server.outbox().count == 1)
            let page = try await browser.get("/verify")
            #expect(page.body.contains("The code we sent to (530) 555-0123 is on its way."))
            #expect(!page.body.contains("A new code was sent"))
            #expect(try await submitCode(browser, first).location == "/home")
        }
    }

    @Test("going back to Login shows the number, and a new number starts over")
    func backToLogin() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let back = try await browser.get("/login")
            #expect(back.status == .ok)
            #expect(back.body.contains(#"value="(530) 555-0123""#))
            let other = try await login(browser, "(415) 555-0199")
            #expect(other.location == "/verify")
            let page = try await browser.get("/verify")
            #expect(page.body.contains("(415) 555-0199"))
            let code = try server.lastCode(to: "+14155550199")
            #expect(try await submitCode(browser, code).location == "/home")
            #expect(try await browser.get("/home").body.contains("(415) 555-0199"))
        }
    }

    @Test("the number that last signed in is filled in on return, until \"Not you?\" forgets it")
    func remembersLastNumber() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get("/login").body.contains("Not you?") == false)
            try await login(browser)
            let signedIn = try await submitCode(browser, try server.lastCode())
            let cookie = try #require(signedIn.setCookie("last-phone"))
            #expect(cookie.hasPrefix("last-phone=+15305550123;"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("Max-Age=31536000"))

            // Back after the session ended by itself (not Log out, which forgets the number on a
            // phone that is not remembered): filled in, with "Not you?".
            let expired = Browser(baseURL: server.baseURL)
            expired.setCookie("last-phone", try #require(browser.cookie("last-phone")))
            let page = try await expired.get("/login")
            #expect(page.body.contains(#"value="(530) 555-0123""#))
            #expect(page.body.contains("Not you?"))
            _ = try await browser.post("/logout")
            #expect(!(try await browser.get("/login")).body.contains("(530) 555-0123"))

            // A tampered value is not a number: ignored, never echoed.
            browser.setCookie("last-phone", "<script>x()")
            let tampered = try await browser.get("/login")
            #expect(!tampered.body.contains("Not you?"))
            #expect(!tampered.body.contains("x()"))

            browser.setCookie("last-phone", "+15305550123")
            let forgotten = try await browser.post("/login/forget")
            #expect(forgotten.location == "/login")
            #expect(forgotten.setCookie("last-phone")?.contains("Max-Age=0") == true)
            let empty = try await browser.get("/login")
            #expect(empty.body.contains(#"value="""#))
            #expect(!empty.body.contains("(530) 555-0123"))
            // Forgetting needs the CSRF token like every other form.
            browser.setCookie("last-phone", "+15305550123")
            #expect(try await browser.post("/login/forget", csrf: false).status == .forbidden)
            #expect(browser.cookie("last-phone") == "+15305550123")
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
