import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// The recycled-number guard over HTTP: a number that has not signed in with a code for
/// `--dormant-after` days asks "Is this your account?" after its right code, and nothing of the
/// account opens until it is answered; the new holder's fresh account, the old owner's way back.
@Suite("Is this your account?, end to end")
struct ClaimFlowTests {
    let confirm = ConfirmFlowTests()
    let recover = RecoverFlowTests()
    static let days91: Double = 91 * 86_400

    /// The account of 4155550100 with money in it and its recovery codes, then 91 days of quiet.
    func oldAccount(_ server: TestServer) async throws -> [String] {
        let (owner, codes) = try await recover.account(server, phone: "4155550100")
        let home = try await owner.get("/home")
        let key = try #require(home.body.firstMatch(of: /name="key" value="([^"]+)"/)?.1)
        let added = try await owner.post("/accounts", form: [("name", "Savings"), ("key", String(key))])
        let page = try await owner.get(try #require(added.location))
        let depositKey = try #require(page.body.firstMatch(of: /action="\/accounts\/\d+\/deposit"[\s\S]*?name="key" value="([^"]+)"/)?.1)
        #expect(try await owner.post(added.location! + "/deposit", form: [("amount", "25.00"), ("key", String(depositKey))]).status == .seeOther)
        server.clock.advance(by: Self.days91)
        return codes
    }

    /// A code sign-in to `phone` in a new browser, up to its right code.
    func newHolder(_ server: TestServer, phone: String = "4155550100") async throws -> (Browser, TestResponse) {
        let browser = Browser(baseURL: server.baseURL)
        _ = try await browser.get("/login")
        #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
        return (browser, try await browser.post("/verify", form: [("code", try server.lastCode(to: "+1" + phone))]))
    }

    /// The account of 5305550123 with a passkey, then 91 days of quiet; the passkey.
    func accountWithPasskey(_ server: TestServer) async throws -> SoftwareAuthenticator {
        let passkeyFlow = PasskeyFlowTests()
        let owner = try await passkeyFlow.signIn(server)
        var authenticator = SoftwareAuthenticator()
        #expect(try await passkeyFlow.create(owner, &authenticator).location == "/devices")
        server.clock.advance(by: Self.days91)
        return authenticator
    }

    @Test("after 91 quiet days the right code asks whose the account is; nothing of it opens; 'new to me' is a fresh, empty account, and the owner gets the old one back with a recovery code")
    func freshStart() async throws {
        try await withServer { server in
            let codes = try await oldAccount(server)
            let (browser, verified) = try await newHolder(server)
            #expect(verified.location == "/claim")
            let page = try await browser.get("/claim")
            #expect(page.status == .ok)
            #expect(page.body.contains("Is this your account?"))
            #expect(page.body.contains("(415) 555-0100"))
            #expect(page.body.contains("It last signed in with this number on"))
            #expect(!page.body.contains("Savings") && !page.body.contains("25.00"))
            // Nothing of the account: not Home, not the wallet, not Verify again, not the API.
            #expect(try await browser.get("/home").location == "/login")
            #expect(try await browser.get("/account").location == "/login")
            #expect(try await browser.get("/verify").location == "/claim")
            // Without the form's CSRF token: refused.
            #expect(try await browser.post("/claim/fresh", csrf: false).status == .forbidden)
            let fresh = try await browser.post("/claim/fresh")
            #expect(fresh.location == "/home")
            let home = try await browser.get("/home")
            #expect(home.status == .ok)
            #expect(!home.body.contains("Savings") && home.body.contains("No accounts yet."))
            #expect(try await browser.get("/claim").location == "/home")
            // Its number signs in to the fresh account from now on, with no question.
            server.clock.advance(by: 31)
            let again = try await confirm.signIn(server, phone: "4155550100")
            #expect(!(try await again.get("/home").body.contains("Savings")))

            // The owner: the old number and a recovery code find the detached account.
            let owner = Browser(baseURL: server.baseURL)
            _ = try await owner.get("/recover")
            let proved = try await owner.post("/recover", form: [("phone", "4155550100"), ("code", codes[0])])
            #expect(proved.location == "/recover/phone?left=9")
            #expect(try await owner.get(proved.location!).body.contains("Your account has no number now"))
            server.clock.advance(by: 31)
            let texts = try server.outbox().count
            // Its old number is its new holder's now: refused before any code goes to them.
            let old = try await owner.post("/recover/phone", form: [("phone", "4155550100")])
            #expect(old.status == .conflict)
            #expect(old.body.contains("That number already has its own account."))
            #expect(try server.outbox().count == texts)
            #expect(try await owner.post("/recover/phone", form: [("phone", "5305550123")]).location == "/recover/code?sent=1")
            let moved = try await owner.post("/recover/code", form: [("code", try server.lastCode(to: "+15305550123"))])
            // Not "We texted your old number": it is someone else's, and was not texted.
            #expect(moved.location == "/account?changed=attached")
            #expect(try await owner.get("/home").body.contains("Savings"))
            // No text to the old number: it is someone else's now.
            #expect(try server.outbox().count == texts + 1)
            #expect(try server.outbox().last?.to == "+15305550123")
            // The new holder's account is untouched.
            #expect(!(try await again.get("/home").body.contains("Savings")))
        }
    }

    @Test("'It's mine' with a recovery code signs in to the account; a wrong code says so; the number then counts as used")
    func itsMine() async throws {
        try await withServer { server in
            let codes = try await oldAccount(server)
            // The API names the proofs this account has: codes, and no passkey.
            let api = APIClient(server)
            _ = try await api.send("+14155550100")
            let checked = try await api.check("+14155550100", try server.lastCode(to: "+14155550100"))
            #expect(checked.response.body.contains(#""accepted_proofs":["recovery_code"]"#))
            // The app answers the question with its claim_id: a wrong code says so and is
            // counted; a right one is a token to the account; the question is then over.
            let claim = try #require((checked.json["error"] as? [String: Any])?["claim_id"] as? String)
            let wrongCode = try await api.call(
                .POST, "/claims/recovery-code", json: ["claim_id": claim, "recovery_code": "0000-0000-00"])
            #expect(wrongCode.status == 422 && wrongCode.errorCode == "incorrect_recovery_code")
            #expect(try await api.call(.POST, "/claims/recovery-code", json: ["claim_id": "nonsense", "recovery_code": codes[4]]).errorCode == "claim_expired")
            let proved = try await api.call(
                .POST, "/claims/recovery-code", json: ["claim_id": claim, "recovery_code": codes[4]])
            #expect(proved.status == 200)
            let token = try #require(proved.json["auth_token"] as? String)
            let me = try await api.call(.GET, "/me", token: token)
            #expect(me.status == 200 && me.json["phone_number"] as? String == "+14155550100")
            let again = try await api.call(.POST, "/claims/recovery-code", json: ["claim_id": claim, "recovery_code": codes[5]])
            #expect(again.status == 409 && again.errorCode == "claim_expired")
            #expect(try await api.call(.POST, "/claims/fresh", json: ["claim_id": claim]).errorCode == "claim_expired")
            // A signed-in token is no question: it detaches nothing.
            #expect(try await api.call(.POST, "/claims/fresh", json: ["claim_id": token]).errorCode == "claim_expired")
            // Proved, the number counts as used: a new browser is asked nothing.
            server.clock.advance(by: 31)
            #expect(try await confirm.signIn(server, phone: "4155550100").get("/home").body.contains("Savings"))
            server.clock.advance(by: Self.days91)
            let (browser, verified) = try await newHolder(server)
            #expect(verified.location == "/claim")
            let wrong = try await browser.post("/claim/code", form: [("code", "0000-0000-00")])
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.body.contains("That isn&#39;t one of this account&#39;s recovery codes."))
            let mine = try await browser.post("/claim/code", form: [("code", codes[2])])
            #expect(mine.location == "/home")
            #expect(try await browser.get("/home").body.contains("Savings"))
            server.clock.advance(by: 31)
            #expect(try await confirm.signIn(server, phone: "4155550100").get("/home").body.contains("Savings"))
        }
    }

    @Test("an account with neither a passkey nor a recovery code can only start afresh; the API answers account_dormant with the proofs it takes; fewer days than --dormant-after, or 0, ask nothing")
    func noWayBackAndTheAPI() async throws {
        try await withServer({ $0.policy.dormantAfter = 10 * 86_400 }) { server in
            let owner = try await confirm.signIn(server, phone: "4155550100", remember: true)
            server.clock.advance(by: 9 * 86_400)
            // Within the days: no question.
            #expect(try await confirm.signIn(server, phone: "4155550100").get("/home").status == .ok)
            server.clock.advance(by: 11 * 86_400)
            // (The remembered phone signs in with no code at all, so no question either.)
            _ = owner
            let (browser, verified) = try await newHolder(server)
            #expect(verified.location == "/claim")
            let page = try await browser.get("/claim")
            #expect(page.body.contains("This account has no recovery code and no passkey"))
            #expect(!page.body.contains(#"id="claim-code-form""#))
            let api = APIClient(server)
            server.clock.advance(by: 31)
            _ = try await api.send("+14155550100")
            let checked = try await api.check("+14155550100", try server.lastCode(to: "+14155550100"))
            #expect(checked.response.status == .conflict)
            #expect(checked.response.body.contains(#""code":"account_dormant""#))
            #expect(checked.response.body.contains(#""accepted_proofs":[]"#))
            // "New to me" from the app: a fresh account's token; the old account is kept apart.
            let claim = try #require((checked.json["error"] as? [String: Any])?["claim_id"] as? String)
            let fresh = try await api.call(.POST, "/claims/fresh", json: ["claim_id": claim])
            #expect(fresh.status == 200)
            let user = try #require(fresh.json["user"] as? [String: Any])
            let token = try #require(fresh.json["auth_token"] as? String)
            #expect(user["phone_number"] as? String == "+14155550100")
            #expect((try await api.call(.GET, "/accounts", token: token).json["accounts"] as? [Any])?.isEmpty == true)
            #expect(try await owner.get("/home").location == "/login")
            #expect(try await api.call(.POST, "/claims/fresh", json: ["claim_id": claim]).errorCode == "claim_expired")
        }
        try await withServer({ $0.policy.dormantAfter = 0 }) { server in
            _ = try await confirm.signIn(server, phone: "4155550100")
            server.clock.advance(by: 400 * 86_400)
            #expect(try await newHolder(server).1.location == "/home")
        }
    }

    @Test("a passkey of a detached account proves it as a recovery code would: a new number for it, then signed in; the new holder's account is untouched")
    func passkeyOfDetached() async throws {
        let passkeyFlow = PasskeyFlowTests()
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            let (holder, verified) = try await newHolder(server, phone: "5305550123")
            #expect(verified.location == "/claim")
            #expect(try await holder.get("/claim").body.contains(#"id="claim-passkey-login""#))
            #expect(try await holder.post("/claim/fresh").location == "/home")
            // The owner, on a new phone with the passkey: straight to giving the account a number.
            let phone = Browser(baseURL: server.baseURL)
            _ = try await phone.get("/login")
            let proved = try await passkeyFlow.passkeySignIn(phone, &authenticator)
            #expect(proved.location == "/recover/phone")
            #expect(try await phone.get("/home").location == "/login")
            #expect(try await phone.get("/recover/phone").body.contains("Your account has no number now"))
            server.clock.advance(by: 31)
            _ = try await phone.post("/recover/phone", form: [("phone", "4155550100")])
            let moved = try await phone.post("/recover/code", form: [("code", try server.lastCode(to: "+14155550100"))])
            #expect(moved.location == "/account?changed=attached")
            #expect(try await phone.get("/account").body.contains(#"id="account-phone">(415) 555-0100</strong>"#))
            // Its passkey signs in as usual from now on.
            let later = Browser(baseURL: server.baseURL)
            _ = try await later.get("/login")
            #expect(try await passkeyFlow.passkeySignIn(later, &authenticator).location == "/home")
            #expect(try await holder.get("/account").body.contains(#"id="account-phone">(530) 555-0123</strong>"#))
        }
    }

    @Test("'It's mine' with a passkey signs in, and the code that asked counts as the number's use: the next code sign-in asks nothing")
    func itsMineByPasskey() async throws {
        let passkeyFlow = PasskeyFlowTests()
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            let (phone, verified) = try await newHolder(server, phone: "5305550123")
            #expect(verified.location == "/claim")
            #expect(try await passkeyFlow.passkeySignIn(phone, &authenticator).location == "/home")
            #expect(try await phone.get("/home").status == .ok)
            server.clock.advance(by: 31)
            #expect(try await confirm.signIn(server, phone: "5305550123").get("/home").status == .ok)
        }
    }

    /// A passkey sign-in through the API, answering `claim` when given.
    func apiPasskeySignIn(
        _ api: APIClient, _ authenticator: inout SoftwareAuthenticator, claim: String? = nil
    ) async throws -> APIClient.Reply {
        let start = try await api.call(.POST, "/passkeys/sign-in/options")
        let options = try #require(start.json["options"] as? [String: Any])
        let answer = try JSONSerialization.jsonObject(
            with: authenticator.signIn(challenge: try #require(options["challenge"] as? String)))
        var body: [String: Any] = [
            "passkey_request_id": try #require(start.json["passkey_request_id"] as? String), "credential": answer,
        ]
        if let claim { body["claim_id"] = claim }
        return try await api.call(.POST, "/passkeys/sign-in", json: body)
    }

    @Test("the API with a passkey: it answers account_dormant's claim_id (the number then counts as used); a detached account's passkey gets a recovery_id that gives it a number")
    func passkeyInTheAPI() async throws {
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            let api = APIClient(server)
            _ = try await api.send("+15305550123")
            let checked = try await api.check("+15305550123", try server.lastCode(to: "+15305550123"))
            #expect(checked.response.body.contains(#""accepted_proofs":["passkey"]"#))
            let claim = try #require((checked.json["error"] as? [String: Any])?["claim_id"] as? String)
            // Only a waiting question is ended: anything else is refused before the passkey is looked at.
            #expect(try await apiPasskeySignIn(api, &authenticator, claim: "nonsense").errorCode == "claim_expired")
            let signedIn = try await apiPasskeySignIn(api, &authenticator, claim: claim)
            #expect(signedIn.status == 200)
            let token = try #require(signedIn.json["auth_token"] as? String)
            #expect(try await apiPasskeySignIn(api, &authenticator, claim: token).errorCode == "claim_expired")
            #expect(try await api.call(.POST, "/claims/fresh", json: ["claim_id": claim]).errorCode == "claim_expired")
            server.clock.advance(by: 31)
            #expect(try await newHolder(server, phone: "5305550123").1.location == "/home")

            // 91 days on, the number's new holder starts afresh; the passkey then earns a recovery_id.
            server.clock.advance(by: Self.days91)
            let (holder, verified) = try await newHolder(server, phone: "5305550123")
            #expect(verified.location == "/claim")
            #expect(try await holder.post("/claim/fresh").location == "/home")
            let detached = try await apiPasskeySignIn(api, &authenticator)
            #expect(detached.status == 409 && detached.errorCode == "account_detached")
            let id = try #require((detached.json["error"] as? [String: Any])?["recovery_id"] as? String)
            let sent = try await api.call(.POST, "/recoveries/phone", json: ["recovery_id": id, "phone_number": "4155550100"])
            let verification = try #require(sent.json["verification_id"] as? String)
            let moved = try await api.call(
                .POST, "/recoveries/verify",
                json: [
                    "recovery_id": id, "phone_number": "4155550100", "verification_id": verification,
                    "code": try server.lastCode(to: "+14155550100"),
                ])
            #expect(moved.status == 200)
            let back = try #require(moved.json["auth_token"] as? String)
            #expect(try await api.call(.GET, "/me", token: back).json["phone_number"] as? String == "+14155550100")
        }
    }

    @Test("Confirm it's you by text, signed in by passkey on a number quiet for 91 days: confirmed, no question, and the number counts as used")
    func confirmOnQuietNumber() async throws {
        let passkeyFlow = PasskeyFlowTests()
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            // Signed in by passkey all along: the number itself has not been used for 91 days.
            let phone = Browser(baseURL: server.baseURL)
            _ = try await phone.get("/login")
            #expect(try await passkeyFlow.passkeySignIn(phone, &authenticator).location == "/home")
            server.clock.advance(by: 11 * 60)
            #expect(try await phone.post("/devices/sign-out-others").location == "/confirm?next=%2Fdevices")
            _ = try await phone.post("/confirm/send", form: [("next", "/devices")])
            let right = try await phone.post(
                "/confirm/code", form: [("next", "/devices"), ("code", try server.lastCode(to: "+15305550123"))])
            #expect(right.location == "/devices")
            #expect(try await phone.post("/devices/sign-out-others").location == "/devices")
            server.clock.advance(by: 31)
            #expect(try await confirm.signIn(server, phone: "5305550123").get("/home").status == .ok)
        }
    }

    @Test("a question answered in one browser is over in the other: after 'It's mine' a stale 'new to me' detaches nothing; after 'new to me' the other sees no one's account")
    func staleQuestion() async throws {
        try await withServer { server in
            let codes = try await oldAccount(server)
            let (first, _) = try await newHolder(server)
            server.clock.advance(by: 31)
            let (second, reached) = try await newHolder(server)
            #expect(reached.location == "/claim")
            #expect(try await first.post("/claim/code", form: [("code", codes[0])]).location == "/home")
            let stale = try await second.post("/claim/fresh")
            #expect(stale.location?.hasPrefix("/login") == true)
            #expect(try await first.get("/home").body.contains("Savings"))
            // The other order: a fresh account made in one browser is not the other's to enter.
            server.clock.advance(by: Self.days91)
            let (third, _) = try await newHolder(server)
            server.clock.advance(by: 31)
            let (fourth, _) = try await newHolder(server)
            #expect(try await third.post("/claim/fresh").location == "/home")
            #expect(try await fourth.get("/claim").location?.hasPrefix("/login") == true)
            #expect(try await fourth.post("/claim/fresh").location?.hasPrefix("/login") == true)
            #expect(try await fourth.get("/home").location == "/login")
        }
    }
}
