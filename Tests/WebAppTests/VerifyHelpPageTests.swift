import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// "Didn't get a code?" (issue 26, part 1): linked from Verify, it says where the last code went
/// and how long ago, what to try, and offers a new code once the resend wait is over.
@Suite("Didn't get a code? (the help page)")
struct VerifyHelpPageTests: SignInSteps {
    @Test("Verify links the help page, which says where the code went and when, and counts down to a new one")
    func helpPage() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            let verify = try await browser.get("/verify")
            #expect(verify.body.contains(#"<a href="/verify/help" id="no-code">Didn&#39;t get a code?</a>"#))

            let help = try await browser.get("/verify/help")
            #expect(help.status == .ok)
            #expect(help.header("Cache-Control") == "no-store")
            #expect(help.body.contains("<title>Didn&#39;t get a code? · Phone Login</title>"))
            #expect(
                help.body.contains(
                    #"We texted a code to <span class="nowrap">(530) 555-0123</span> less than a minute ago."#))
            #expect(help.body.contains(#"<a href="/login" id="change-number">"#))
            #expect(help.body.contains("cannot receive texts"))
            // The resend wait is said, and counted down by countdown.js from when the page came.
            #expect(
                help.body.contains(
                    #"data-retry-in="30" data-said="in 30 seconds">If it still hasn&#39;t come, you can try again in 30 seconds."#
                ))
            #expect(help.body.contains("/public/countdown."))
            #expect(help.body.contains(#"<form method="post" action="/verify/resend""#))

            server.clock.advance(by: 150)
            let later = try await browser.get("/verify/help")
            #expect(later.body.contains("</span> 2 minutes ago."))
            #expect(later.body.contains(">If it still hasn&#39;t come, ask for a new one.</p>"))
            #expect(!later.body.contains("data-retry-in"))

            // Its button is the resend: a new code, back on Verify with the notice.
            let resent = try await browser.post("/verify/resend", form: [])
            #expect(resent.location == "/verify")
            #expect(try server.outbox().count == 2)
            let fresh = try await browser.get("/verify/help")
            #expect(fresh.body.contains("</span> less than a minute ago."))
        }
    }

    @Test("the help page is for a sign-in in progress: signed out goes to Login, signed in to Home")
    func whoMaySeeIt() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let nobody = try await browser.get("/verify/help")
            #expect(nobody.status == .seeOther)
            #expect(nobody.location == "/login")
            try await login(browser)
            #expect(try await submitCode(browser, try server.lastCode()).location == "/home")
            let signedIn = try await browser.get("/verify/help")
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.location == "/home")
        }
    }
}
