import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// What a person meets on Verify beyond the right code (issue 18): slips that cost nothing, a
/// lock that sends nothing, and no dead ends after a refusal or an expired sign-in.
@Suite("The Verify page's answers to mistakes and limits")
struct VerifyPageTests: SignInSteps {
    @Test("fewer than six digits, none, or letters: 'Enter the 6-digit code', marked invalid, and no try counted")
    func malformedCode() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            for typed in ["", "123", "12a456", "1 3", "", "12345", "abcdef"] {
                let answer = try await submitCode(browser, typed)
                #expect(answer.status == .unprocessableEntity, "\(typed)")
                #expect(answer.body.contains(#"role="alert">Enter the 6-digit code</p>"#), "\(typed)")
                #expect(answer.body.contains("<title>Error: Enter your code · Phone Login</title>"))
                #expect(answer.body.components(separatedBy: #"aria-invalid="true""#).count - 1 == 6)
            }
            #expect(try await submitCode(browser, try server.lastCode()).location == "/home")
        }
    }

    @Test(
        "Verify says how long the code lasts; a wrong code is an error in the title and the boxes, with the tries left")
    func lifetimeAndWrongCode() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let page = try await browser.get("/verify")
            #expect(page.body.contains(#"<p id="otp-hint" class="hint">The code expires in 10 minutes.</p>"#))
            #expect(page.body.contains("<title>Enter your code · Phone Login</title>"))
            #expect(!page.body.contains("aria-invalid"))
            let wrong = try await submitCode(browser, wrongCode(for: try server.lastCode()))
            #expect(wrong.body.contains("<title>Error: Enter your code · Phone Login</title>"))
            #expect(wrong.body.components(separatedBy: #"aria-invalid="true""#).count - 1 == 6)
            #expect(wrong.body.contains(#"role="alert">Incorrect verification code. You have 4 tries left.</p>"#))
            for _ in 2...3 { _ = try await submitCode(browser, wrongCode(for: try server.lastCode())) }
            let fourth = try await submitCode(browser, wrongCode(for: try server.lastCode()))
            #expect(fourth.body.contains(#"role="alert">Incorrect verification code. You have 1 try left.</p>"#))
        }
    }

    @Test("after the fifth wrong code only a new code is offered: no boxes, no Verify button")
    func deadCode() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let code = try server.lastCode()
            var last: TestResponse? = nil
            for _ in 1...5 { last = try await submitCode(browser, wrongCode(for: code)) }
            let page = try #require(last)
            #expect(page.body.contains("Too many incorrect codes. Please request a new code."))
            #expect(!page.body.contains(#"id="d1""#))
            #expect(!page.body.contains(#"id="verify-button""#))
            #expect(page.body.contains(#"id="resend-button" data-wait="#))
            #expect(page.body.contains(">Send a new code</button>"))
            // Reloading it (a GET) still offers only a new code; so does a code that expired.
            let reloaded = try await browser.get("/verify")
            #expect(reloaded.body.contains("Too many incorrect codes. Please request a new code."))
            #expect(!reloaded.body.contains(#"id="d1""#))
            server.clock.advance(by: 31)
            _ = try await browser.post("/verify/resend")
            #expect(try await browser.get("/verify").body.contains(#"id="d1""#))
            server.clock.advance(by: 601)
            let expired = try await browser.get("/verify")
            #expect(expired.body.contains("Your code expired"))
            #expect(!expired.body.contains(#"id="d1""#))
        }
    }

    /// "24 Nov, 08:15 UTC": when a lock that ends `seconds` after `now` has ended, to the minute.
    func lockEnd(_ now: Date, _ seconds: String?) throws -> String {
        let end = now.addingTimeInterval(Double(try #require(seconds.flatMap(Int.init))))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM, HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: (end.timeIntervalSince1970 / 60).rounded(.up) * 60))
            + " UTC"
    }

    @Test(
        "a locked number gets no texts from Login or Resend; the page says until when (UTC) and what else can be done"
    )
    func lockedNumber() async throws {
        try await withServer({ $0.policy.maxFailuresPerPhone = 5 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let code = try server.lastCode()
            for _ in 1...5 { _ = try await submitCode(browser, wrongCode(for: code)) }
            server.clock.advance(by: 31)
            let resend = try await browser.post("/verify/resend")
            #expect(resend.status == .tooManyRequests)
            let until = try lockEnd(server.clock.now, resend.header("Retry-After"))
            let sentence =
                "Too many incorrect codes for this number. Sign-in to it is locked until \(until). Until then you can"
                + " sign in with another number, or on a phone you chose to remember."
            #expect(resend.body.contains(sentence))
            // About 24 hours from the failures, whatever the minute.
            let wait = try #require(resend.header("Retry-After").flatMap(Int.init))
            #expect(abs(wait - (86_400 - 31)) <= 60)
            #expect(!resend.body.contains("data-retry-at"))
            #expect(!resend.body.contains(#"id="resend-button""#))
            #expect(!resend.body.contains(#"id="d1""#))
            #expect(resend.body.contains(#"<a href="/login">Use a different number</a>"#))
            let again = try await login(Browser(baseURL: server.baseURL))
            #expect(again.status == .tooManyRequests)
            #expect(again.body.contains(sentence))
            #expect(try server.outbox().count == 1)
        }
    }

    @Test("a refused resend offers the code already sent; reload or Back on its page shows Verify, never 405")
    func reloadAfterResend() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            server.clock.advance(by: 10)
            let refused = try await browser.post("/verify/resend")
            #expect(refused.status == .tooManyRequests)
            // The code already sent still works: the page says so rather than only "wait".
            #expect(refused.body.contains("Enter the code we already sent. It expires in 10 minutes."))
            #expect(refused.body.contains(#"id="d1""#))
            let reload = try await browser.get("/verify/resend")
            #expect(reload.status == .seeOther)
            #expect(reload.location == "/verify")
            #expect(try server.outbox().count == 1)
        }
    }

    @Test("an expired sign-in lands on Login with 'Your sign-in expired. Please enter your phone number again.', once")
    func expiredSignIn() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            server.clock.advance(by: 1201)
            let verify = try await browser.get("/verify")
            #expect(verify.status == .seeOther)
            #expect(verify.location == "/login")
            #expect(verify.setCookie("login-notice")?.contains("Path=/login; Max-Age=60") == true)
            let page = try await browser.get("/login")
            #expect(page.status == .ok)
            #expect(
                page.body.contains(#"role="status">Your sign-in expired. Please enter your phone number again.</p>"#))
            // Said once: the page drops the cookie, so a reload shows Login without it.
            #expect(page.setCookie("login-notice")?.contains("Max-Age=0") == true)
            let reload = try await browser.get("/login")
            #expect(!reload.body.contains("Your sign-in expired"))
            // Never signed in at all: Login without a word.
            let stranger = try await Browser(baseURL: server.baseURL).get("/verify")
            #expect(stranger.location == "/login")
        }
    }
}
