import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// The code on Verify over real HTTP with a cookie jar, as a browser would: wrong, expired, too
/// many tries, and a new one asked for.
@Suite("Codes on Verify over HTTP")
struct CodeEntryTests: SignInSteps {
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
}
