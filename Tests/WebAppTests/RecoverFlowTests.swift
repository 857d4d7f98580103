import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// "Lost your phone or number?" over HTTP: the old number and a recovery code, a code to the new
/// number, the account moved with everywhere else signed out; and the ways around it that must
/// not work (guessing, a code twice, another account's code, a stale proof, a taken number).
@Suite("Lost your phone or number, end to end")
struct RecoverFlowTests {
    let confirm = ConfirmFlowTests()

    /// Signs `phone` in on a new browser and makes its recovery codes.
    func account(_ server: TestServer, phone: String) async throws -> (Browser, [String]) {
        let browser = try await confirm.signIn(server, phone: phone)
        let made = try await browser.post("/account/recovery")
        let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
        #expect(codes.count == 10)
        return (browser, codes)
    }

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

    @Test("a wrong code, an unknown number and another account's code get the same answer; a slip costs no try; the sixth try for a number waits, said plainly")
    func wrongTries() async throws {
        try await withServer { server in
            let (_, codes) = try await account(server, phone: "4155550100")
            let (_, others) = try await account(server, phone: "5305550199")
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/recover")
            let unknown = try await browser.post("/recover", form: [("phone", "2125550100"), ("code", codes[1])])
            let otherAccounts = try await browser.post("/recover", form: [("phone", "4155550100"), ("code", others[0])])
            #expect(unknown.status == .unprocessableEntity && otherAccounts.status == .unprocessableEntity)
            let error = /<p id="recover-error" class="error" role="alert">([^<]*)<\/p>/
            #expect(unknown.body.firstMatch(of: error)?.1 == otherAccounts.body.firstMatch(of: error)?.1)
            // Not 10 letters and digits, or a U (no code has one): not a try.
            for slip in ["ABCD-EFGH", "ABCD-EFGH-JKL", "UUUU-UUUU-UU"] {
                let page = try await browser.post("/recover", form: [("phone", "4155550100"), ("code", slip)])
                #expect(page.body.contains("A recovery code is 10 letters and digits"))
            }
            // The last wrong try sent again (Reload, which Safari answers by posting the form
            // again): answered alike, and not counted.
            let again = try await browser.post("/recover", form: [("phone", "4155550100"), ("code", others[0])])
            #expect(again.status == .unprocessableEntity && again.body.firstMatch(of: error)?.1 == otherAccounts.body.firstMatch(of: error)?.1)
            for guess in 0..<4 {
                #expect(try await browser.post("/recover", form: [("phone", "4155550100"), ("code", "0000-0000-0\(guess)")]).status
                    == .unprocessableEntity)
            }
            // Five wrong tries for the number: the right code waits too.
            let limited = try await browser.post("/recover", form: [("phone", "(415) 555-0100"), ("code", codes[1])])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.body.contains("Too many tries for this number. Please try again in 1 hour."))
            #expect(limited.header("Retry-After") == "3600")
            // Another number is not held up by it (and its code tried with the wrong number was not spent).
            #expect(try await browser.post("/recover", form: [("phone", "5305550199"), ("code", others[0])]).location
                == "/recover/phone?left=9")
            server.clock.advance(by: 3601)
            #expect(try await browser.post("/recover", form: [("phone", "4155550100"), ("code", codes[1])]).location
                == "/recover/phone?left=9")
            // Without the form's CSRF token: refused.
            #expect(try await browser.post("/recover", form: [("phone", "4155550100"), ("code", codes[2])], csrf: false).status
                == .forbidden)
        }
    }

    @Test("guesses sent at once: no more than five are looked at for one number, and one code proves once however many race with it")
    func parallelGuesses() async throws {
        try await withServer { server in
            let (_, codes) = try await account(server, phone: "4155550100")
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/recover")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponseStatus.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await browser.post(
                            "/recover", form: [("phone", "4155550100"), ("code", String(format: "0000-0000-%02d", index))]
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponseStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unprocessableEntity }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 7)
            server.clock.advance(by: 3601)
            let proofs = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let racer = Browser(baseURL: server.baseURL)
                        _ = try await racer.get("/recover")
                        return try await racer.post("/recover", form: [("phone", "4155550100"), ("code", codes[3])]).location
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(proofs.filter { $0 == "/recover/phone?left=9" }.count == 1)
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

    @Test("Home offers recovery codes, and says why, to someone with neither a passkey nor codes; made, the offer goes; the page can print them")
    func homeOffer() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server)
            let home = try await browser.get("/home")
            #expect(home.body.contains(#"<section class="recovery-offer" id="recovery-offer""#))
            #expect(home.body.contains("so you can get back in if you lose this number or this phone."))
            #expect(home.body.contains(#"<a href="/account/recovery" id="recovery-offer-make">Make recovery codes</a>"#))
            let made = try await browser.post("/account/recovery")
            #expect(made.body.contains(#"<button type="button" class="link" id="recovery-print" hidden>Print them</button>"#))
            #expect(made.body.contains("/public/print."))
            #expect(!(try await browser.get("/home").body.contains("recovery-offer")))
            // Every code used: offered again.
            let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            let stranger = Browser(baseURL: server.baseURL)
            _ = try await stranger.get("/recover")
            for code in codes {
                server.clock.advance(by: 1)
                _ = try await stranger.post("/recover", form: [("phone", "5305550123"), ("code", code)])
            }
            #expect(try await browser.get("/home").body.contains("recovery-offer"))
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

    @Test("Reload of the page that showed new codes (its form posted again) makes no other set: the codes just saved still work")
    func reloadMakesNothing() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server, phone: "4155550100")
            let page = try await browser.get("/account/recovery")
            let replaces = try #require(page.body.firstMatch(of: /name="replaces" value="([^"]+)"/)?.1)
            #expect(replaces == "none")
            let made = try await browser.post("/account/recovery", form: [("replaces", String(replaces))])
            let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            #expect(codes.count == 10)
            let again = try await browser.post("/account/recovery", form: [("replaces", String(replaces))])
            #expect(again.status == .ok)
            #expect(again.body.contains("Those codes were already made: no new ones were made."))
            #expect(!again.body.contains("<code>"))
            #expect(again.body.contains("You have 10 recovery codes left."))
            // The saved codes are the ones that work.
            let stranger = Browser(baseURL: server.baseURL)
            _ = try await stranger.get("/recover")
            #expect(try await stranger.post("/recover", form: [("phone", "4155550100"), ("code", codes[0])]).location
                == "/recover/phone?left=9")
            // The page's form now names the current set, and makes a new one.
            let current = try await browser.get("/account/recovery")
            let name = try #require(current.body.firstMatch(of: /name="replaces" value="([^"]+)"/)?.1)
            #expect(name != "none")
            #expect(try await browser.post("/account/recovery", form: [("replaces", String(name))]).body.contains("<code>"))
        }
    }

    @Test(
        "a recovery code is answered from the transaction that spent it: after its commit nothing reads the account (pages and API)",
        arguments: ["page", "api"])
    func provedBeforeCommit(_ way: String) async throws {
        // A read after the commit could fail (PostgreSQL slow): the person would hear "try
        // again" with the code already spent, and the same code again would be a wrong try.
        let statements = NIOLockedValueBox([String]())
        try await withServer(
            database: .sqlite, { $0.onDatabaseStatement = { sql in statements.withLockedValue { $0.append(sql) } } }
        ) { server in
            let (_, codes) = try await account(server, phone: "4155550100")
            let stranger = Browser(baseURL: server.baseURL)
            _ = try await stranger.get("/recover")
            statements.withLockedValue { $0.removeAll() }
            if way == "page" {
                let proved = try await stranger.post("/recover", form: [("phone", "4155550100"), ("code", codes[0])])
                #expect(proved.location == "/recover/phone?left=9")
            } else {
                let proved = try await APIClient(server).call(
                    .POST, "/recoveries", json: ["phone_number": "4155550100", "recovery_code": codes[0]])
                #expect(proved.status == 201 && proved.json["phone_number"] as? String == "+14155550100")
            }
            let seen = statements.withLockedValue { $0 }
            let spent = try #require(seen.lastIndex { $0.hasPrefix("UPDATE recovery_codes") }, "\(seen)")
            let commit = try #require(seen[spent...].firstIndex { $0.hasPrefix("COMMIT") }, "\(seen)")
            #expect(
                !seen[commit...].contains { $0.contains("recovery_codes") || $0.contains("FROM users") },
                "read after the commit: \(seen[commit...])")
            // The proof made from the transaction's reads holds for the next step.
            if way == "page" {
                #expect(try await stranger.post("/recover/phone", form: [("phone", "5305550123")]).location
                    == "/recover/code?sent=1")
            }
        }
    }
}
