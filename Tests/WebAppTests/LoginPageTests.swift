import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// Login over real HTTP with a cookie jar, as a browser would: the number typed, refused with
/// its reason, shown again escaped, and remembered for the next visit.
@Suite("Login page over HTTP")
struct LoginPageTests: SignInSteps {
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
}
