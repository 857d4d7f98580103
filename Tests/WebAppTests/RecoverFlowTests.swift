import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// "Lost your phone or number?" over HTTP: the old number and a recovery code, a code to the new
/// number, the account moved with everywhere else signed out; and the ways around it that must
/// not work (a code twice, a stale proof, a taken number). Guessing is
/// ``RecoveryCodeTriesTests``.
@Suite("Lost your phone or number, end to end")
struct RecoverFlowTests: RecoverySteps {
    @Test("a recovery code and the old number move the account to a new number: the lost phone is signed out, the old number told, one code spent")
    func recovers() async throws {
        try await withServer { server in
            let (phone, codes) = try await account(server, phone: "4155550100")
            let remembered = try await confirm.signIn(server, phone: "4155550100", remember: true)
            let stranger = Browser(baseURL: server.baseURL)
            let login = try await stranger.get("/login")
            #expect(login.body.contains(#"<a href="/recover" id="lost-number">Lost your phone or number?</a>"#))
            let start = try await stranger.get("/recover")
            #expect(start.status == .ok)
            #expect(start.body.contains(#"autocomplete="off""#))
            // Typed as a person reads it off paper: lower case, spaces, O for 0.
            let typed = codes[0].lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "0", with: "o")
            let proved = try await stranger.post("/recover", form: [("phone", "(415) 555-0100"), ("code", typed)])
            #expect(proved.location == "/recover/phone?left=9")
            let choose = try await stranger.get(proved.location!)
            #expect(choose.body.contains("Recovery code accepted. You have 9 codes left."))
            #expect(choose.body.contains("(415) 555-0100"))
            // The account's own number is no new number.
            #expect(try await stranger.post("/recover/phone", form: [("phone", "4155550100")]).status == .unprocessableEntity)
            let sent = try await stranger.post("/recover/phone", form: [("phone", "5305550123")])
            #expect(sent.location == "/recover/code?sent=1")
            #expect(try await stranger.get(sent.location!).body.contains("We texted a code to (530) 555-0123."))
            #expect(try server.outbox().last?.body.contains("is your code to move an account at") == true)
            let wrong = try await stranger.post("/recover/code", form: [("code", "000000")])
            #expect(wrong.status == .unprocessableEntity)
            let moved = try await stranger.post("/recover/code", form: [("code", try server.lastCode(to: "+15305550123"))])
            #expect(moved.location == "/account?changed=phone")
            #expect(moved.setCookie("recovery")?.contains("Max-Age=0") == true)
            // Login fills in the new number on this browser, not the lost one.
            #expect(moved.setCookie("last-phone")?.contains("+15305550123") == true)
            let page = try await stranger.get(moved.location!)
            #expect(page.body.contains("Your number is now (530) 555-0123."))
            #expect(page.body.contains("You have 9 recovery codes left."))
            // Everywhere else is signed out, the remembered phone forgotten too.
            #expect(try await phone.get("/home").location == "/login")
            #expect(try await remembered.get("/home").location == "/login")
            let notice = try #require(try server.outbox().last { $0.to == "+14155550100" })
            #expect(notice.body.contains("(•••) •••-0123"))
            // Signed in now: the recovery pages are behind, Back included.
            #expect(try await stranger.get("/recover").location == "/home")
            #expect(try await stranger.get("/recover/code").location == "/home")
            // The code is spent.
            let again = Browser(baseURL: server.baseURL)
            _ = try await again.get("/recover")
            let reused = try await again.post("/recover", form: [("phone", "5305550123"), ("code", codes[0])])
            #expect(reused.status == .unprocessableEntity)
            #expect(reused.body.contains("That number and recovery code don&#39;t go together."))
        }
    }

    @Test("a proof goes stale after 30 minutes; a new number with its own account is refused once its code is right, and the proof stands for another")
    func staleAndTaken() async throws {
        try await withServer { server in
            let (_, codes) = try await account(server, phone: "4155550100")
            _ = try await confirm.signIn(server, phone: "5305550123")
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/recover")
            #expect(try await browser.get("/recover/phone").location == "/recover")
            _ = try await browser.post("/recover", form: [("phone", "4155550100"), ("code", codes[0])])
            #expect(try await browser.post("/recover/phone", form: [("phone", "5305550123")]).location == "/recover/code?sent=1")
            let taken = try await browser.post("/recover/code", form: [("code", try server.lastCode(to: "+15305550123"))])
            #expect(taken.status == .conflict)
            #expect(taken.body.contains("That number already has its own account."))
            server.clock.advance(by: 31)
            #expect(try await browser.post("/recover/phone", form: [("phone", "2125550100")]).location == "/recover/code?sent=1")
            server.clock.advance(by: 30 * 60)
            let stale = try await browser.post("/recover/code", form: [("code", try server.lastCode(to: "+12125550100"))])
            #expect(stale.status == .conflict)
            #expect(stale.body.contains("That took too long"))
            #expect(try await browser.get("/recover/phone").location == "/recover")
            // Nothing moved: the account is where it was, and signs in there.
            let owner = try await confirm.signIn(server, phone: "4155550100")
            #expect(try await owner.get("/account").body.contains(#"id="account-phone">(415) 555-0100</strong>"#))
        }
    }

    @Test("a proof moves the account once: copied to another browser it is void once the account moved, and void once the owner made new codes")
    func proofOnce() async throws {
        try await withServer { server in
            let (owner, codes) = try await account(server, phone: "4155550100")
            let first = Browser(baseURL: server.baseURL)
            _ = try await first.get("/recover")
            _ = try await first.post("/recover", form: [("phone", "4155550100"), ("code", codes[0])])
            let copy = Browser(baseURL: server.baseURL)
            _ = try await copy.get("/recover")
            copy.setCookie("recovery", try #require(first.cookie("recovery")), path: "/recover")
            #expect(try await copy.get("/recover/phone").status == .ok)
            _ = try await first.post("/recover/phone", form: [("phone", "5305550123")])
            #expect(try await first.post("/recover/code", form: [("code", try server.lastCode(to: "+15305550123"))]).location
                == "/account?changed=phone")
            #expect(try await copy.get("/recover/phone").location == "/recover")
            #expect(try await copy.post("/recover/phone", form: [("phone", "2125550100")]).status == .conflict)
            // New codes made by the owner void a proof made with an old one.
            let again = try await confirm.signIn(server, phone: "5305550123")
            _ = owner
            let (_, fresh) = (again, try await again.post("/account/recovery"))
            let newCodes = fresh.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            let thief = Browser(baseURL: server.baseURL)
            _ = try await thief.get("/recover")
            #expect(try await thief.post("/recover", form: [("phone", "5305550123"), ("code", newCodes[0])]).location
                == "/recover/phone?left=9")
            _ = try await again.post("/account/recovery")
            #expect(try await thief.get("/recover/phone").location == "/recover")
        }
    }

    @Test("the API: a recovery code proves the account (201 recovery_id), a code to the new number, then a token; the old token ends; wrong, reused and forged ids are refused, each as the OpenAPI document says")
    func api() async throws {
        try await withServer { server in
            let (_, codes) = try await account(server, phone: "4155550100")
            let api = APIClient(server)
            let oldToken = try await api.signIn(server, "+14155550100")
            server.clock.advance(by: 31)
            let wrong = try await api.call(.POST, "/recoveries", json: ["phone_number": "4155550100", "recovery_code": "0000-0000-00"])
            #expect(wrong.status == 422 && wrong.errorCode == "incorrect_recovery_code")
            let slip = try await api.call(.POST, "/recoveries", json: ["phone_number": "4155550100", "recovery_code": "short"])
            #expect(slip.status == 422 && slip.errorCode == "invalid_recovery_code")
            let proved = try await api.call(.POST, "/recoveries", json: ["phone_number": "(415) 555-0100", "recovery_code": codes[4]])
            #expect(proved.status == 201)
            #expect(proved.json["codes_left"] as? Int == 9)
            #expect(proved.json["phone_number"] as? String == "+14155550100")
            let id = try #require(proved.json["recovery_id"] as? String)
            let forged = try await api.call(
                .POST, "/recoveries/phone", json: ["recovery_id": "1" + id, "phone_number": "5305550123"])
            #expect(forged.status == 409 && forged.errorCode == "recovery_expired")
            let same = try await api.call(.POST, "/recoveries/phone", json: ["recovery_id": id, "phone_number": "4155550100"])
            #expect(same.status == 422 && same.errorCode == "same_number")
            let sent = try await api.call(.POST, "/recoveries/phone", json: ["recovery_id": id, "phone_number": "5305550123"])
            #expect(sent.status == 200)
            let verification = try #require(sent.json["verification_id"] as? String)
            let done = try await api.call(
                .POST, "/recoveries/verify",
                json: [
                    "recovery_id": id, "phone_number": "5305550123", "verification_id": verification,
                    "code": try server.lastCode(to: "+15305550123"),
                ])
            #expect(done.status == 200)
            let token = try #require(done.json["auth_token"] as? String)
            #expect(try await api.call(.GET, "/me", token: token).json["phone_number"] as? String == "+15305550123")
            #expect(try await api.call(.GET, "/me", token: oldToken).status == 401)
            // The proof is spent with the move.
            let again = try await api.call(.POST, "/recoveries/phone", json: ["recovery_id": id, "phone_number": "2125550100"])
            #expect(again.status == 409 && again.errorCode == "recovery_expired")
        }
    }
}
