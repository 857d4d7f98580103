import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// "Confirm it's you" over HTTP: what asks for a fresh proof, the page that takes one without
/// signing out, and the ways around it that must not work.
@Suite("Confirm it's you, end to end")
struct ConfirmFlowTests {
    /// Signs in by code (`remember`: the box ticked); the browser, on Home.
    func signIn(_ server: TestServer, phone: String = "5305550123", remember: Bool = false) async throws -> Browser {
        let browser = Browser(baseURL: server.baseURL)
        _ = try await browser.get("/login")
        #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
        let verified = try await browser.post(
            "/verify", form: [("code", try server.lastCode(to: "+1" + phone))] + (remember ? [("remember", "on")] : []))
        #expect(verified.location == "/home")
        server.clock.advance(by: 31)  // the next code may be sent
        return browser
    }

    @Test("fresh from a code, sign out everywhere else goes through; 11 minutes later it asks first, and a new code lets it through")
    func asksWhenStale() async throws {
        try await withServer { server in
            let browser = try await signIn(server)
            let other = try await signIn(server)
            #expect(try await browser.post("/devices/sign-out-others").location == "/devices")
            #expect(try await other.get("/home").location == "/login")

            let third = try await signIn(server)
            server.clock.advance(by: 11 * 60)
            let asked = try await browser.post("/devices/sign-out-others")
            #expect(asked.location == "/confirm?next=%2Fdevices")
            #expect(try await third.get("/home").status == .ok)  // nothing was done

            let page = try await browser.get("/confirm?next=%2Fdevices")
            #expect(page.status == .ok)
            #expect(page.body.contains("Confirm it&#39;s you") || page.body.contains("Confirm it's you"))
            #expect(page.body.contains(#"<strong class="nowrap">(530) 555-0123</strong>"#))
            #expect(page.body.contains(#"<input type="hidden" name="next" value="/devices">"#))
            let texts = try server.outbox().count
            let sent = try await browser.post("/confirm/send", form: [("next", "/devices")])
            #expect(sent.location == "/confirm/code?next=%2Fdevices&sent=sms")
            #expect(try server.outbox().count == texts + 1)
            #expect(try await browser.get(sent.location!).body.contains("We texted a code to (530) 555-0123."))

            let before = try #require(browser.cookie("session"))
            let wrong = try await browser.post("/confirm/code", form: [("next", "/devices"), ("code", "000000")])
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.body.contains("Incorrect"))
            let right = try await browser.post(
                "/confirm/code", form: [("next", "/devices"), ("code", try server.lastCode(to: "+15305550123"))])
            #expect(right.location == "/devices")
            // A new session took the old one's place: a copy of the old cookie is signed out.
            let after = try #require(browser.cookie("session"))
            #expect(after != before)
            let copy = Browser(baseURL: server.baseURL)
            copy.setCookie("session", before)
            #expect(try await copy.get("/home").location == "/login")
            #expect(try await browser.get("/home").status == .ok)
            #expect(try await browser.post("/devices/sign-out-others").location == "/devices")
            #expect(try await third.get("/home").location == "/login")
            // Recent activity says it was a confirmation, not another sign-in.
            #expect(try await browser.get("/account/activity").body.contains("Confirmed it&#39;s you with a code by text"))
        }
    }

    @Test("a remembered phone is never a proof, however recent")
    func rememberedIsNoProof() async throws {
        try await withServer(PasskeyFlowTests.on) { server in
            let browser = try await signIn(server, remember: true)
            _ = try await browser.post("/logout")
            _ = try await browser.get("/login")
            #expect(try await browser.post("/login/remembered").location == "/home")
            #expect(try await browser.post("/devices/sign-out-others").location == "/confirm?next=%2Fdevices")
            // Straight to a sensitive page's address: asked first too.
            #expect(try await browser.get("/devices/passkeys/1/remove").location?.hasPrefix("/confirm?next=") == true)
        }
    }

    @Test("next= leads only to a path on this site; signed out, Login; the forms need their CSRF token")
    func nextAndRefusals() async throws {
        try await withServer { server in
            let stranger = Browser(baseURL: server.baseURL)
            #expect(try await stranger.get("/confirm").location == "/login")
            #expect(try await stranger.post("/confirm/code", form: [("code", "123456")]).location == "/login")

            let browser = try await signIn(server)
            for hostile in ["//evil.example/x", "https://evil.example", "/\\evil.example", "javascript:alert(1)"] {
                let page = try await browser.get("/confirm?next=" + Browser.encode(hostile))
                #expect(page.body.contains(#"<input type="hidden" name="next" value="/home">"#), "\(hostile)")
            }
            _ = try await browser.post("/confirm/send", form: [("next", "//evil.example")])
            let right = try await browser.post(
                "/confirm/code", form: [("next", "//evil.example"), ("code", try server.lastCode(to: "+15305550123"))])
            #expect(right.location == "/home")
            // The used confirmation is gone: its code and cookie do nothing more.
            #expect(try await browser.get("/confirm/code").location == "/confirm?next=%2Fhome")

            let forged = try await browser.post("/confirm/send", form: [("next", "/devices")], csrf: false)
            #expect(forged.status == .forbidden)
        }
    }

    @Test("one of the person's own passkeys confirms; another account's passkey proves nothing and signs no one in")
    func passkeyProof() async throws {
        try await withServer(PasskeyFlowTests.on) { server in
            let flows = PasskeyFlowTests()
            let alice = try await flows.signIn(server)
            var alicesKey = SoftwareAuthenticator()
            #expect(try await flows.create(alice, &alicesKey).location == "/devices")
            server.clock.advance(by: 11 * 60)
            #expect(try await alice.post("/devices/sign-out-others").location == "/confirm?next=%2Fdevices")
            let page = try await alice.get("/confirm?next=%2Fdevices")
            #expect(page.body.contains(#"id="passkey-button""#))
            #expect(page.body.contains(#"action="/confirm/passkey""#))

            // Mallory's own passkey, answered in Alice's browser: refused, Alice stays who she is.
            let mallory = Browser(baseURL: server.baseURL)
            _ = try await mallory.get("/login")
            _ = try await mallory.post("/login", form: [("phone", "4155550199")])
            _ = try await mallory.post("/verify", form: [("code", try server.lastCode(to: "+14155550199"))])
            var mallorysKey = SoftwareAuthenticator()
            _ = try await flows.create(mallory, &mallorysKey)
            let before = try #require(alice.cookie("session"))
            let options = try await alice.post("/confirm/passkey/options")
            #expect(options.status == .ok)
            let wrong = mallorysKey.signIn(challenge: try #require(flows.json(options)["challenge"] as? String))
            let refused = try await alice.post(
                "/confirm/passkey", form: [("next", "/devices"), ("credential", String(decoding: wrong, as: UTF8.self))])
            #expect(refused.status.code >= 400)
            #expect(alice.cookie("session") == before)
            #expect(try await alice.get("/home").body.contains("(530) 555-0123"))
            #expect(try await alice.post("/devices/sign-out-others").location == "/confirm?next=%2Fdevices")

            // Her own passkey: confirmed, a new session, back where she was.
            let again = try await alice.post("/confirm/passkey/options")
            let right = alicesKey.signIn(challenge: try #require(flows.json(again)["challenge"] as? String))
            let proved = try await alice.post(
                "/confirm/passkey", form: [("next", "/devices"), ("credential", String(decoding: right, as: UTF8.self))])
            #expect(proved.location == "/devices")
            #expect(alice.cookie("session") != before)
            #expect(try await alice.post("/devices/sign-out-others").location == "/devices")
            #expect(try await mallory.get("/home").status == .ok)  // another person's session, untouched
        }
    }

    @Test("a code for the confirmation of one person cannot be typed into another's")
    func anotherPersonsCode() async throws {
        try await withServer { server in
            let alice = try await signIn(server, phone: "5305550123")
            let mallory = try await signIn(server, phone: "4155550199")
            _ = try await alice.post("/confirm/send", form: [("next", "/devices")])
            let aliceCode = try server.lastCode(to: "+15305550123")
            _ = try await mallory.post("/confirm/send", form: [("next", "/devices")])
            let refused = try await mallory.post("/confirm/code", form: [("next", "/devices"), ("code", aliceCode)])
            #expect(refused.status == .unprocessableEntity)
            #expect(try await mallory.get("/home").body.contains("(415) 555-0199"))
        }
    }
}
