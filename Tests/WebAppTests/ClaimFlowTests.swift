import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// The recycled-number guard over HTTP: a number that has not signed in with a code for
/// `--dormant-after` days asks "Is this your account?" after its right code, and nothing of the
/// account opens until it is answered; the new holder's fresh account, the old owner's way back
/// with a recovery code, or none. The way back with a passkey is ``ClaimByPasskeyTests``.
@Suite("Is this your account?, end to end")
struct ClaimFlowTests: ClaimSteps {
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
