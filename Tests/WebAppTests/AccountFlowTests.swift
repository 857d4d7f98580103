import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// "Your account" over HTTP: the page, changing the number, the download and the deletion, each
/// behind "Confirm it's you", and the ways around them that must not work.
@Suite("Your account, end to end")
struct AccountFlowTests {
    let confirm = ConfirmFlowTests()
    let wallet = WalletPageTests()

    @Test("the page: signed out it is Login; signed in, the number, how you sign in and the three actions; linked from Home and Your devices")
    func page() async throws {
        try await withServer { server in
            #expect(try await Browser(baseURL: server.baseURL).get("/account").location == "/login")
            let browser = try await confirm.signIn(server)
            #expect(try await browser.get("/home").body.contains(#"<a href="/account" id="home-account">Your account</a>"#))
            #expect(try await browser.get("/devices").body.contains(#"<a href="/account" id="devices-account">"#))
            let page = try await browser.get("/account")
            #expect(page.status == .ok)
            #expect(page.body.contains(#"<strong class="nowrap" id="account-phone">(530) 555-0123</strong>"#))
            #expect(page.body.contains(#"href="/account/phone""#))
            #expect(!page.body.contains(#"id="notice""#) && !page.body.contains(#"id="account-error""#))
            #expect(page.body.contains(#"href="/account/download""#))
            #expect(page.body.contains(#"href="/account/delete""#))
        }
    }

    @Test("the download: after Confirm, one JSON file of the person's rows and no secret; stale, Confirm first")
    func download() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server)
            let other = try await confirm.signIn(server, phone: "5305550199")
            let file = try await browser.get("/account/data")
            #expect(file.status == .ok)
            #expect(file.headers["Content-Disposition"].first == #"attachment; filename="phone-login-data.json""#)
            #expect(file.headers["Cache-Control"].first == "no-store")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(file.body.utf8)) as? [String: Any])
            #expect((json["account"] as? [String: Any])?["phone_number"] as? String == "+15305550123")
            #expect((json["codes_sent"] as? [Any])?.count == 1)
            #expect(!file.body.contains("5305550199"))
            for cookie in [browser.cookie("session"), other.cookie("session")].compactMap({ $0 }) {
                #expect(!file.body.contains(cookie))
            }
            server.clock.advance(by: 11 * 60)
            #expect(try await browser.get("/account/data").location == "/confirm?next=%2Faccount%2Fdata")
        }
    }

    @Test("changing the number: Confirm first, a code to the new number, the account moves, the old number is told, the new one signs in to it")
    func changeNumber() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server, phone: "4155550100")
            server.clock.advance(by: 11 * 60)
            // Stale: straight to the form, or posting it, asks first; nothing is sent.
            #expect(try await browser.get("/account/phone").location == "/confirm?next=%2Faccount%2Fphone")
            let texts = try server.outbox().count
            #expect(
                try await browser.post("/account/phone", form: [("phone", "5305550123")]).location
                    == "/confirm?next=%2Faccount%2Fphone")
            #expect(try server.outbox().count == texts)
            _ = try await browser.post("/confirm/send", form: [("next", "/account/phone")])
            let confirmed = try await browser.post(
                "/confirm/code", form: [("next", "/account/phone"), ("code", try server.lastCode(to: "+14155550100"))])
            #expect(confirmed.location == "/account/phone")
            server.clock.advance(by: 31)

            // Its own number is refused, what was typed kept.
            let same = try await browser.post("/account/phone", form: [("phone", "(415) 555-0100")])
            #expect(same.status == .unprocessableEntity)
            #expect(same.body.contains("That is already your number."))
            #expect(same.body.contains(#"value="(415) 555-0100""#))
            // Without the form's CSRF token: refused.
            #expect(try await browser.post("/account/phone", form: [("phone", "5305550123")], csrf: false).status == .forbidden)

            let sent = try await browser.post("/account/phone", form: [("phone", "5305550123")])
            #expect(sent.location == "/account/phone/code?sent=1")
            let code = try await browser.get(sent.location!)
            #expect(code.body.contains("We texted a code to (530) 555-0123."))
            // The text says what the code does, so its holder knows what reading it out gives away.
            #expect(try server.outbox().last?.body.contains("is your code to move an account at") == true)
            #expect(code.body.contains(#"autocomplete="one-time-code""#))
            let wrong = try await browser.post("/account/phone/code", form: [("code", "000000")])
            #expect(wrong.status == .unprocessableEntity)
            #expect(try await browser.get("/account").body.contains("(415) 555-0100"))
            let moved = try await browser.post("/account/phone/code", form: [("code", try server.lastCode(to: "+15305550123"))])
            #expect(moved.location == "/account?changed=phone")
            let after = try await browser.get(moved.location!)
            #expect(after.body.contains("Your number is now (530) 555-0123."))
            #expect(after.body.contains(#"id="account-phone">(530) 555-0123</strong>"#))
            let notice = try #require(try server.outbox().last { $0.to == "+14155550100" })
            #expect(notice.body.contains("(•••) •••-0123"))
            #expect(!notice.body.contains("530"))
            // The same browser is still signed in; the new number signs in to the same account.
            #expect(try await browser.get("/home").status == .ok)
            server.clock.advance(by: 31)
            let again = try await confirm.signIn(server, phone: "5305550123")
            let data = try await again.get("/account/data")
            #expect(data.body.contains(#""phone_number" : "+14155550100""#))
        }
    }

    @Test("a number with its own account is refused only once its code proves the person holds it")
    func numberWithAccount() async throws {
        try await withServer { server in
            _ = try await confirm.signIn(server, phone: "5305550123")
            let browser = try await confirm.signIn(server, phone: "4155550100")
            let sent = try await browser.post("/account/phone", form: [("phone", "5305550123")])
            // Before the code: the same answer as for a free number.
            #expect(sent.location == "/account/phone/code?sent=1")
            let refused = try await browser.post(
                "/account/phone/code", form: [("code", try server.lastCode(to: "+15305550123"))])
            #expect(refused.status == .conflict)
            #expect(refused.body.contains("That number already has its own account."))
            #expect(try await browser.get("/account").body.contains(#"id="account-phone">(415) 555-0100</strong>"#))
        }
    }

    @Test("deleting: Confirm first; refused while money is held; then the account goes everywhere and the number is free")
    func delete() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server)
            let elsewhere = try await confirm.signIn(server)
            _ = try await wallet.submit(browser, try await browser.get("/home"), "/accounts", [("name", "Checking")])
            let account = try await browser.get("/accounts/1")
            #expect(try await wallet.submit(browser, account, "/accounts/1/deposit", [("amount", "5")]).location == "/accounts/1")

            let ask = try await browser.get("/account/delete")
            #expect(ask.body.contains("Your accounts still hold $5.00."))
            #expect(!ask.body.contains(#"id="account-delete-confirm""#))
            let refused = try await browser.post("/account/delete")
            #expect(refused.status == .conflict)
            #expect(try await browser.get("/home").status == .ok)

            #expect(
                try await wallet.submit(browser, try await browser.get("/accounts/1"), "/accounts/1/withdraw", [("amount", "5")])
                    .location == "/accounts/1")
            // Stale: asked first, nothing deleted.
            server.clock.advance(by: 11 * 60)
            #expect(try await browser.post("/account/delete").location == "/confirm?next=%2Faccount%2Fdelete")
            #expect(try await elsewhere.get("/home").status == .ok)
            _ = try await browser.post("/confirm/send", form: [("next", "/account/delete")])
            _ = try await browser.post(
                "/confirm/code", form: [("next", "/account/delete"), ("code", try server.lastCode(to: "+15305550123"))])
            let asked = try await browser.get("/account/delete")
            #expect(asked.body.contains(#"id="account-delete-confirm""#), "\(asked.status) \(asked.location ?? "") \(asked.body)")
            let deleted = try await browser.post("/account/delete")
            #expect(deleted.location == "/login")
            #expect(try await browser.get("/login").body.contains("Your account was deleted."))
            #expect(try await browser.get("/home").location == "/login")
            #expect(try await elsewhere.get("/home").location == "/login")
            // The number is free: signing in with it makes a new, empty account.
            server.clock.advance(by: 31)
            let fresh = try await confirm.signIn(server)
            #expect(try await fresh.get("/accounts/1").status == .notFound)
        }
    }

    @Test("a pending sign-in's token, or another person's change, in the number-change cookie moves nothing; a stale proof is asked again before the code")
    func numberChangeCookieIsBound() async throws {
        try await withServer { server in
            let victim = try await confirm.signIn(server, phone: "4155550100")
            // The attacker's own pending sign-in to their number: its token from Login's cookie.
            let attacker = Browser(baseURL: server.baseURL)
            _ = try await attacker.get("/login")
            #expect(try await attacker.post("/login", form: [("phone", "5305550299")]).location == "/verify")
            let token = try #require(attacker.cookie("session"))
            let code = try server.lastCode(to: "+15305550299")
            victim.setCookie("number-change", token)
            // Fresh: the cookie is not this person's change, so there is no code to take.
            #expect(try await victim.post("/account/phone/code", form: [("code", code)]).location == "/account/phone")
            // Stale: asked to confirm first, whatever the cookie.
            server.clock.advance(by: 11 * 60)
            #expect(
                try await victim.post("/account/phone/code", form: [("code", code)]).location
                    == "/confirm?next=%2Faccount%2Fphone%2Fcode")
            #expect(try await victim.get("/home").body.contains("(415) 555-0100"))

            // A change left by one person in a shared browser is not the next person's.
            let shared = try await confirm.signIn(server, phone: "5305550401")
            #expect(try await shared.post("/account/phone", form: [("phone", "5305550402")]).location?.hasPrefix("/account/phone/code") == true)
            let left = try #require(shared.cookie("number-change"))
            let next = try await confirm.signIn(server, phone: "5305550403")
            next.setCookie("number-change", left)
            #expect(try await next.get("/account/phone/code").location == "/account/phone")
            #expect(
                try await next.post("/account/phone/code", form: [("code", try server.lastCode(to: "+15305550402"))])
                    .location == "/account/phone")
        }
    }

    @Test("a code page from another tab's change takes no try from this one; a link cannot say a number changed")
    func twoTabsAndTheNotice() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server, phone: "4155550100")
            #expect(try await browser.get("/account?changed=phone").body.contains("Your number is now") == false)
            _ = try await browser.post("/account/phone", form: [("phone", "5305550801")])
            let first = try server.lastCode(to: "+15305550801")
            server.clock.advance(by: 31)
            _ = try await browser.post("/account/phone", form: [("phone", "5305550802")])
            // The first tab's page still names 0801.
            let stale = try await browser.post(
                "/account/phone/code", form: [("phone", "+15305550801"), ("code", first)])
            #expect(stale.status == .ok)
            #expect(stale.body.contains("We texted a code to (530) 555-0802."))
            let moved = try await browser.post(
                "/account/phone/code", form: [("phone", "+15305550802"), ("code", try server.lastCode(to: "+15305550802"))])
            #expect(moved.location == "/account?changed=phone")
        }
    }

    @Test("Download your data is a page of its own: stale, Confirm returns to it, and its link saves the file")
    func downloadPage() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server)
            #expect(try await browser.get("/account").body.contains(#"<a href="/account/download" id="account-download">"#))
            server.clock.advance(by: 11 * 60)
            #expect(try await browser.get("/account/download").location == "/confirm?next=%2Faccount%2Fdownload")
            _ = try await browser.post("/confirm/send", form: [("next", "/account/download")])
            let back = try await browser.post(
                "/confirm/code", form: [("next", "/account/download"), ("code", try server.lastCode(to: "+15305550123"))])
            #expect(back.location == "/account/download")
            let page = try await browser.get("/account/download")
            #expect(page.body.contains(#"<a href="/account/data" id="account-download-file" download="phone-login-data.json">"#))
            #expect(try await browser.get("/account/data").status == .ok)
        }
    }

    @Test("recovery codes: after Confirm, ten shown once and never cached; Your account counts them; a new set replaces them")
    func recoveryCodes() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server)
            #expect(try await browser.get("/account").body.contains("So you can get back in if you lose this number."))
            let page = try await browser.get("/account/recovery")
            #expect(page.body.contains("You have no recovery codes yet."))
            let made = try await browser.post("/account/recovery")
            #expect(made.status == .ok)
            #expect(made.headers["Cache-Control"].first == "no-store")
            let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            #expect(codes.count == 10)
            #expect(made.body.contains(#"download="phone-login-recovery-codes.txt""#))
            // Never again: the page now only counts them.
            let later = try await browser.get("/account/recovery")
            #expect(later.body.contains("You have 10 recovery codes left."))
            #expect(!codes.contains { later.body.contains($0) })
            #expect(try await browser.get("/account").body.contains("You have 10 recovery codes left."))
            let again = try await browser.post("/account/recovery")
            let newCodes = again.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            #expect(newCodes.count == 10 && Set(newCodes).isDisjoint(with: codes))
            // Stale: asked to confirm first, nothing made.
            server.clock.advance(by: 11 * 60)
            #expect(try await browser.post("/account/recovery").location == "/confirm?next=%2Faccount%2Frecovery")
            // Without the form's CSRF token: refused.
            #expect(try await browser.post("/account/recovery", csrf: false).status == .forbidden)
        }
    }
}

