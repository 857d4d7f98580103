import AuthCore
import ConsoleCore
import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import TestSupport
import Testing
import WebAuthnCore

@testable import WebApp

/// The operators' console (issue 40) over HTTP: who gets in (a listed number with a recent
/// passkey, nobody else, and nobody by a text), what an operator sees of a person, and the
/// actions, each with a reason and an event naming the operator. Attacked as the issue asks:
/// every address as a stranger, a stale proof, CSRF, markup a person stored, and another
/// person's passkey by id.
@Suite("The operators' console")
struct ConsoleTests {
    static let operatorPhone = "2125550100"
    static let person = "5305550123"

    static func on(_ configuration: inout AppConfiguration) {
        PasskeyFlowTests.on(&configuration)
        configuration.operators = Operators([try! PhoneNumber(parsing: operatorPhone)])
    }

    /// Signs `phone` in by text in a new browser.
    func signIn(_ server: TestServer, _ phone: String, userAgent: String? = nil) async throws -> Browser {
        let browser = Browser(baseURL: server.baseURL)
        var headers = HTTPHeaders()
        if let userAgent { headers.add(name: "User-Agent", value: userAgent) }
        _ = try await browser.get("/login", headers: headers)
        _ = try await browser.post("/login", form: [("phone", phone)], headers: headers)
        let e164 = try PhoneNumber(parsing: phone).e164
        let verified = try await browser.post(
            "/verify", form: [("code", try server.lastCode(to: e164))], headers: headers)
        #expect(verified.location == "/home")
        return browser
    }

    /// The operator, signed in by text, with a passkey added through an enrollment link from the
    /// shell, proved with it just now: the console is open.
    func openConsole(_ server: TestServer) async throws -> (Browser, SoftwareAuthenticator) {
        let admin = try await signIn(server, Self.operatorPhone)
        var key = SoftwareAuthenticator()
        try await enroll(server, admin, &key)
        try await prove(admin, &key, next: "/admin")
        return (admin, key)
    }

    /// An enrollment link (as `webapp admin enroll` makes one), used in `admin` to add `key`.
    func enroll(_ server: TestServer, _ admin: Browser, _ key: inout SoftwareAuthenticator) async throws {
        let (token, sha256) = Enrollment.newToken()
        try await server.app.storage.console.addEnrollment(
            tokenSHA256: sha256, phone: "+12125550100", expiresAt: server.clock.now.timeIntervalSince1970 + 900)
        let page = try await admin.get("/admin/enroll?token=" + token)
        #expect(page.status == .ok && page.body.contains(#"id="passkey-create""#))
        // A ceremony the browser got wrong leaves the link for another try.
        let wrong = try await admin.post("/admin/enroll?token=" + token, form: [("credential", "{}")])
        #expect(wrong.status == .badRequest && wrong.body.contains(#"id="passkey-create""#))
        let options = PasskeyFlowTests().json(try await admin.post("/admin/enroll/options?token=" + token))
        let user = try #require(options["user"] as? [String: Any])
        let answer = key.register(
            challenge: try #require(options["challenge"] as? String), userHandle: try #require(user["id"] as? String))
        let added = try await admin.post(
            "/admin/enroll?token=" + token, form: [("credential", String(decoding: answer, as: UTF8.self))])
        #expect(added.location == "/admin/proof?next=%2Fadmin")
    }

    /// Proves the operator with their passkey as the console's proof page does.
    func prove(_ admin: Browser, _ key: inout SoftwareAuthenticator, next: String) async throws {
        let options = try await admin.post("/confirm/passkey/options")
        let answer = key.signIn(challenge: try #require(PasskeyFlowTests().json(options)["challenge"] as? String))
        let proved = try await admin.post(
            "/confirm/passkey", form: [("next", next), ("credential", String(decoding: answer, as: UTF8.self))])
        #expect(proved.location == next)
    }

    /// A 404 page with its per-visit token taken out, to compare two answers whole.
    func shape(_ response: TestResponse) -> String {
        let status = "\(response.status.code)"
        let headers = response.headers.map { "\($0.name.lowercased()): \($0.value)" }
            .filter { !$0.hasPrefix("date:") && !$0.hasPrefix("set-cookie:") && !$0.hasPrefix("x-request-id:") }
            .sorted().joined(separator: "\n")
        let cookies = response.headers["Set-Cookie"].map { $0.split(separator: "=").first.map(String.init) ?? "" }
            .sorted().joined(separator: ",")
        let body = response.body.replacing(/value="[A-Za-z0-9_\-\.]{20,}"/, with: #"value="TOKEN""#)
        return [status, headers, cookies, body].joined(separator: "\n--\n")
    }

    static let addresses = [
        "/admin", "/admin/", "/admin/proof", "/admin/people?phone=5305550123", "/admin/people/unlock?phone=5305550123",
        "/admin/nothing-here",
    ]

    @Test("to a stranger and to a signed-in person who is not an operator, every /admin address and method answers as an unknown page does")
    func strangers() async throws {
        try await withServer(Self.on) { server in
            let signedOut = Browser(baseURL: server.baseURL)
            let someone = try await signIn(server, Self.person)
            for browser in [signedOut, someone] {
                for method in [HTTPMethod.GET, .HEAD, .POST, .PUT, .DELETE] {
                    let unknown = try await browser.send(method, "/no-such-page")
                    for address in Self.addresses {
                        let answer = try await browser.send(method, address)
                        #expect(answer.status == unknown.status, "\(method) \(address)")
                        #expect(shape(answer) == shape(unknown), "\(method) \(address)")
                    }
                }
                // A form with its CSRF token: still nothing.
                let posted = try await browser.post("/admin/people/sign-out-everywhere?phone=5305550123", form: [("reason", "because")])
                #expect(posted.status == .notFound)
            }
            // Without --admins, the same (the console is not mounted at all).
        }
        try await withServer(PasskeyFlowTests.on) { server in
            let admin = try await signIn(server, Self.operatorPhone)
            #expect(try await admin.get("/admin").status == .notFound)
        }
    }

    @Test("to a signed-in person who is no operator, /admin costs the database what an unknown page does (the same time to answer)")
    func sameWork() async throws {
        let statements = NIOLockedValueBox(0)
        try await withServer(
            database: .sqlite,
            {
                Self.on(&$0)
                $0.onDatabaseStatement = { _ in statements.withLockedValue { $0 += 1 } }
            }
        ) { server in
            let someone = try await signIn(server, Self.person)
            _ = try await someone.get("/no-such-page")  // the first use of each statement prepares it
            _ = try await someone.get("/admin")
            func cost(_ path: String) async throws -> Int {
                let before = statements.withLockedValue { $0 }
                #expect(try await someone.get(path).status == .notFound)
                return statements.withLockedValue { $0 } - before
            }
            let unknown = try await cost("/no-such-page")
            #expect(unknown > 0)
            #expect(try await cost("/admin") == unknown)
            #expect(try await cost("/admin/people?phone=5305550123") == unknown)
        }
    }

    @Test("a text never opens the console: an operator without a passkey is told to add one, with one is asked to use it")
    func textIsNotEnough() async throws {
        try await withServer(Self.on) { server in
            let admin = try await signIn(server, Self.operatorPhone)
            let first = try await admin.get("/admin")
            #expect(first.location == "/admin/proof?next=%2Fadmin")
            let proof = try await admin.get("/admin/proof?next=%2Fadmin")
            #expect(proof.status == .ok)
            #expect(proof.body.contains(#"id="console-add-passkey""#))
            #expect(proof.body.contains("<code>webapp admin enroll +12125550100</code>"))
            #expect(!proof.body.contains(#"id="passkey-button""#))
            #expect(try await admin.post("/admin/people/unlock?phone=5305550123", form: [("reason", "locked out")]).location
                == "/admin/proof?next=%2Fadmin%2Fpeople%3Fphone%3D5305550123")

            // A passkey added by text is refused on an operator's account (whoever holds the
            // number and its texts must not get one); the enrollment link from the shell adds it.
            var key = SoftwareAuthenticator()
            let options = try await admin.post("/passkeys/options")
            #expect(options.status == .forbidden)
            #expect(options.body.contains("opens the operators"))
            let added = try await admin.post("/passkeys", form: [("credential", "{}")])
            #expect(added.status == .forbidden)
            #expect(try await server.tableCounts(["passkeys"])["passkeys"] == 0)
            try await enroll(server, admin, &key)
            // Signed in by text a minute ago, with a passkey now: still not open.
            #expect(try await admin.get("/admin").location == "/admin/proof?next=%2Fadmin")
            let ask = try await admin.get("/admin/proof?next=%2Fadmin")
            #expect(ask.body.contains(#"id="passkey-button""#))
            #expect(ask.body.contains(#"action="/confirm/passkey""#))
            try await prove(admin, &key, next: "/admin")
            let open = try await admin.get("/admin")
            #expect(open.status == .ok)
            #expect(open.body.contains(#"id="console-find""#))
            // The glance: the operator's own code, used; the charts and their tables.
            #expect(open.body.contains("1 of 1 codes were used to sign in (100%)."))
            #expect(open.body.components(separatedBy: #"<svg viewBox="0 0 480.0 136.0" role="img""#).count == 4)
            #expect(open.body.contains(#"<tr><th scope="row">code by text</th><td>1</td></tr>"#))
            #expect(open.body.contains("None: texts go to every exchange."))
            #expect(open.body.contains("In the last 24 hours: 1 of the daily budget of 2000, counted in texts."))
            #expect(open.header("Cache-Control") == "no-store")
            let seen = try #require(open.setCookie("console"))
            #expect(seen.contains("Path=/admin") && seen.contains("HttpOnly") && seen.contains("SameSite=Strict"))
            // The proof page, once open, goes straight on; a `next` off the console goes to the console.
            #expect(try await admin.get("/admin/proof?next=%2Fadmin%2Fpeople").location == "/admin/people")
            #expect(try await admin.get("/admin/proof?next=%2Fhome").location == "/admin")
            #expect(try await admin.get("/admin/proof?next=https%3A%2F%2Fevil.example").location == "/admin")
            #expect(try await admin.get("/admin/proof?next=%2Fadmin%2F..%2Faccount%2Fdelete").location == "/admin")
            #expect(try await admin.get("/admin/proof?next=%2Fadmin%2F%252e%252e%2Faccount").location == "/admin")
        }
    }

    @Test("whoever holds an operator's number and its texts gets no passkey in; the enrollment link works once, for its own operator; a proved operator adds another")
    func numberThief() async throws {
        try await withServer(Self.on) { server in
            var (admin, key) = try await openConsole(server)
            // Another browser, signed in by text as the operator (a recycled or stolen number).
            let thief = try await signIn(server, Self.operatorPhone)
            #expect(try await thief.post("/passkeys/options").status == .forbidden)
            #expect(try await thief.get("/admin").location == "/admin/proof?next=%2Fadmin")
            // A used link, or one for another number, adds nothing.
            let (token, sha256) = Enrollment.newToken()
            try await server.app.storage.console.addEnrollment(
                tokenSHA256: sha256, phone: "+14155550199", expiresAt: server.clock.now.timeIntervalSince1970 + 900)
            let notTheirs = try await thief.get("/admin/enroll?token=" + token)
            #expect(notTheirs.status == .gone && notTheirs.body.contains(#"id="enroll-gone""#))
            #expect(try await thief.post("/admin/enroll/options?token=" + token).status == .forbidden)
            #expect(try await thief.get("/admin/enroll?token=nonsense").status == .gone)
            // An expired link for the right number: gone too.
            let (old, oldHash) = Enrollment.newToken()
            try await server.app.storage.console.addEnrollment(
                tokenSHA256: oldHash, phone: "+12125550100", expiresAt: server.clock.now.timeIntervalSince1970 - 1)
            #expect(try await thief.get("/admin/enroll?token=" + old).status == .gone)
            #expect(try await server.tableCounts(["passkeys"])["passkeys"] == 1)
            // The operator, proved by their passkey, adds a second one on Your devices.
            try await prove(admin, &key, next: "/admin")
            var second = SoftwareAuthenticator()
            #expect(try await PasskeyFlowTests().create(admin, &second).location == "/devices")
            #expect(try await server.tableCounts(["passkeys"])["passkeys"] == 2)
            // A passkey that is not theirs fails on the proof: asked again on the console, never by text.
            let options = try await thief.post("/confirm/passkey/options")
            var stranger = SoftwareAuthenticator()
            let answer = stranger.signIn(challenge: try #require(PasskeyFlowTests().json(options)["challenge"] as? String))
            let failed = try await thief.post(
                "/confirm/passkey", form: [("next", "/admin"), ("credential", String(decoding: answer, as: UTF8.self))])
            #expect(failed.location == "/admin/proof?next=%2Fadmin&failed=1")
        }
    }

    @Test("a proof older than 10 minutes only looks; 15 idle minutes close the console; neither acts")
    func staleProof() async throws {
        try await withServer(Self.on) { server in
            let person = try await signIn(server, Self.person)
            var (admin, key) = try await openConsole(server)
            #expect(try await admin.get("/admin/people?phone=5305550123").body.contains(#"id="console-sign-out""#))
            server.clock.advance(by: 9 * 60)
            // Looking keeps it open; at 11 minutes since the proof the actions are gone.
            #expect(try await admin.get("/admin/people?phone=5305550123").status == .ok)
            server.clock.advance(by: 2 * 60)
            let looking = try await admin.get("/admin/people?phone=5305550123")
            #expect(looking.status == .ok)
            #expect(!looking.body.contains(#"id="console-sign-out""#))
            #expect(looking.body.contains(#"id="console-look-only""#))
            let refused = try await admin.post(
                "/admin/people/sign-out-everywhere?phone=5305550123", form: [("reason", "lost phone")])
            #expect(refused.location == "/admin/proof?next=%2Fadmin%2Fpeople%3Fphone%3D5305550123")
            #expect(try await person.get("/home").status == .ok)  // nothing was done
            // 16 minutes without a console page: closed, even to look.
            server.clock.advance(by: 16 * 60)
            #expect(try await admin.get("/admin/people?phone=5305550123").location
                == "/admin/proof?next=%2Fadmin%2Fpeople%3Fphone%3D5305550123")
            // A console cookie moved to another session, or with its time changed, is nobody's.
            let cookie = try #require(admin.cookie("console"))
            let forged = cookie.replacing(/^[0-9]+/, with: String(Int(server.clock.now.timeIntervalSince1970)))
            admin.setCookie("console", forged, path: "/admin")
            #expect(try await admin.get("/admin").location == "/admin/proof?next=%2Fadmin")
            try await prove(admin, &key, next: "/admin/people?phone=5305550123")
            #expect(try await admin.get("/admin/people?phone=5305550123").body.contains(#"id="console-sign-out""#))
        }
    }

    @Test("a person's page: their account, sign-ins, passkeys and codes, with what they stored shown as text")
    func personPage() async throws {
        try await withServer(Self.on) { server in
            let agent = #"Mozilla/5.0 <script>alert("ua")</script>"#
            let person = try await signIn(server, Self.person, userAgent: agent)
            var personsKey = SoftwareAuthenticator()
            #expect(try await PasskeyFlowTests().create(person, &personsKey).location == "/devices")
            let id = try #require(try await person.get("/devices").body.firstMatch(of: /passkeys\/([0-9]+)\/rename/)?.1)
            _ = try await person.post("/devices/passkeys/\(id)/rename", form: [("name", #"<img src=x onerror=alert(1)>"#)])
            let (admin, _) = try await openConsole(server)
            for typed in ["5305550123", "(530) 555-0123", "+1 530-555-0123"] {
                let page = try await admin.get("/admin/people?phone=" + Browser.encode(typed))
                #expect(page.status == .ok)
                #expect(page.body.contains("(530) 555\u{2011}0123"))
                #expect(page.body.contains(#"<strong id="console-status">Active</strong>"#))
                #expect(!page.body.contains("<script>alert"))
                #expect(page.body.contains("&lt;script&gt;alert(&quot;ua&quot;)&lt;/script&gt;"))
                #expect(!page.body.contains("<img src=x"))
                #expect(page.body.contains("&lt;img src=x onerror=alert(1)&gt;"))
                #expect(page.body.contains("A code was texted to"))
            }
            let nobody = try await admin.get("/admin/people?phone=4155550199")
            #expect(nobody.status == .notFound)
            #expect(nobody.body.contains("No account holds (415) 555-0199."))
            let notANumber = try await admin.get("/admin/people?phone=%3Cb%3E12")
            #expect(notANumber.status == .unprocessableEntity)
            #expect(notANumber.body.contains(#"value="&lt;b&gt;12""#))
            _ = try await admin.get("/admin/people?phone=5305550123&lang=es")
            let spanish = try await admin.get("/admin/people?phone=5305550123")
            #expect(spanish.body.contains("Códigos recientes"))
            #expect(spanish.body.contains(#"<html lang="es""#))
        }
    }

    @Test("sign out everywhere: a reason first (422, nothing done, no CSRF 403); then every session ends, with an event naming the operator")
    func signOutEverywhere() async throws {
        try await withServer(Self.on) { server in
            let person = try await signIn(server, Self.person)
            let (admin, _) = try await openConsole(server)
            let path = "/admin/people/sign-out-everywhere?phone=5305550123"
            let noReason = try await admin.post(path, form: [("reason", "  ")])
            #expect(noReason.status == .unprocessableEntity)
            #expect(noReason.body.contains("Say why, in a few words."))
            let tooLong = try await admin.post(path, form: [("reason", String(repeating: "x", count: 501))])
            #expect(tooLong.status == .unprocessableEntity)
            #expect(tooLong.body.contains(String(repeating: "x", count: 501) + "</textarea>"))
            #expect(try await admin.post(path, form: [("reason", "lost phone")], csrf: false).status == .forbidden)
            #expect(try await person.get("/home").status == .ok)

            let done = try await admin.post(path, form: [("reason", "Lost their phone on the bus")])
            #expect(done.location == "/admin/people?phone=%28530%29%20555-0123&done=sign-out-everywhere")
            #expect(try await person.get("/home").location == "/login")
            let page = try await admin.get(try #require(done.location))
            #expect(page.body.contains("Signed out everywhere"))
            #expect(page.body.contains("Support signed you out everywhere"))
            // Reload or Back on the action's address: the person's page, nothing done again.
            #expect(try await admin.get(path).location == "/admin/people?phone=5305550123")
            // The event names the operator and keeps the reason; the person's own activity says it
            // without either.
            let trail = try await server.tableCounts(["events"])
            #expect(trail["events"] ?? 0 > 0)
            let rows = try await server.rows(
                "SELECT actor, reason, detail FROM events WHERE type = 'operator.action'")
            #expect(rows == [["+12125550100", "Lost their phone on the bus", "sign_out_everywhere"]])
            // The operator's own sign-in is untouched.
            #expect(try await admin.get("/admin").status == .ok)
        }
    }

    @Test("unlock: a person locked after wrong codes can sign in again at once, and the page says they were locked")
    func unlock() async throws {
        try await withServer({ Self.on(&$0); $0.policy.maxFailuresPerPhone = 3 }) { server in
            _ = try await signIn(server, Self.person)
            let (admin, _) = try await openConsole(server)
            let person = Browser(baseURL: server.baseURL)
            _ = try await person.get("/login")
            _ = try await person.post("/login", form: [("phone", Self.person)])
            let right = try server.lastCode()
            var status = ""
            // A wrong code typed again is not counted twice: a different one each time.
            for wrong in ["000001", "000002", "000003", "000004"].filter({ $0 != right })
            where status != "Locked after too many wrong codes" {
                _ = try await person.post("/verify", form: [("code", wrong)])
                let page = try await admin.get("/admin/people?phone=5305550123")
                status = String(page.body.firstMatch(of: /id="console-status">([^<]*)</)?.1 ?? "")
            }
            #expect(status == "Locked after too many wrong codes")
            let page = try await admin.get("/admin/people?phone=5305550123")
            #expect(page.body.contains(#"id="console-unlock""#))
            #expect(try await admin.post("/admin/people/unlock?phone=5305550123", form: [("reason", "x")]).status
                == .unprocessableEntity)
            let done = try await admin.post(
                "/admin/people/unlock?phone=5305550123", form: [("reason", "Called from a known number")])
            #expect(done.location == "/admin/people?phone=%28530%29%20555-0123&done=unlock")
            let after = try await admin.get(try #require(done.location))
            #expect(after.body.contains(#"<strong id="console-status">Active</strong>"#))
            #expect(after.body.contains("The lock was lifted"))
            // Not locked any more: refused, said first where the focus goes, nothing recorded.
            let unlockAgain = try await admin.post(
                "/admin/people/unlock?phone=5305550123", form: [("reason", "Called again")])
            #expect(unlockAgain.status == .conflict)
            #expect(unlockAgain.body.contains(#"id="console-error-summary" class="error" role="alert" tabindex="-1" autofocus>The number is not locked"#))
            // The person signs in: a new browser, a new code (or the one out), no wait.
            let again = Browser(baseURL: server.baseURL)
            _ = try await again.get("/login")
            server.clock.advance(by: 61)
            _ = try await again.post("/login", form: [("phone", Self.person)])
            #expect(try await again.post("/verify", form: [("code", try server.lastCode())]).location == "/home")
            let rows = try await server.rows(
                "SELECT actor, reason, detail FROM events WHERE type = 'operator.action'")
            #expect(rows == [["+12125550100", "Called from a known number", "unlock"]])
        }
    }

    @Test("delete the account: the person's own rules (refused while it holds money), the operator's event kept")
    func deleteAccount() async throws {
        try await withServer(Self.on) { server in
            let person = try await signIn(server, Self.person)
            let (admin, _) = try await openConsole(server)
            let path = "/admin/people/delete-account?phone=5305550123"
            // Money in the wallet: refused, with the amount, and nothing deleted.
            try await server.execute(
                "INSERT INTO accounts (user_id, name, balance_cents, created_at) SELECT id, 'Savings', 1250, 0 FROM users WHERE phone = '+15305550123'")
            let refused = try await admin.post(path, form: [("reason", "Asked by phone")])
            #expect(refused.status == .conflict)
            #expect(refused.body.contains("The account holds $12.50"))
            #expect(try await person.get("/home").status == .ok)
            try await server.execute("UPDATE accounts SET balance_cents = 0")
            #expect(try await admin.post(path, form: [("reason", "")]).status == .unprocessableEntity)
            let deleted = try await admin.post(path, form: [("reason", "Asked by phone, number confirmed")])
            #expect(deleted.location == "/admin?done=delete-account")
            #expect(try await admin.get("/admin?done=delete-account").body.contains("The account was deleted."))
            #expect(try await person.get("/home").location == "/login")
            #expect(try await admin.get("/admin/people?phone=5305550123").status == .notFound)
            let rows = try await server.rows(
                "SELECT detail, actor, reason FROM events WHERE type IN ('operator.action', 'user.deleted') ORDER BY id")
            #expect(rows.map(\.first) == ["", "delete_account"])
            #expect(rows.last == ["delete_account", "+12125550100", "Asked by phone, number confirmed"])
        }
    }

    @Test("a person whose number went to someone else: their detached account moves to a new number they prove with a code read to the operator")
    func attachDetached() async throws {
        try await withServer(Self.on) { server in
            // The account of (530) 555-0123, 91 quiet days, then the number's new holder starts afresh.
            _ = try await signIn(server, Self.person)
            server.clock.advance(by: ClaimFlowTests.days91)
            let (holder, verified) = try await ClaimFlowTests().newHolder(server, phone: Self.person)
            #expect(verified.location == "/claim")
            #expect(try await holder.post("/claim/fresh").location == "/home")
            let detached = try #require(try await server.rows("SELECT id FROM users WHERE phone IS NULL").first?.first)

            let (admin, _) = try await openConsole(server)
            let page = try await admin.get("/admin/people?phone=5305550123")
            #expect(page.body.contains(#"id="console-detached""#))
            #expect(page.body.contains("account=\(detached)"))
            // Another account by id (the number's holder is neither detached nor dormant): refused.
            let holderID = try #require(try await server.rows("SELECT id FROM users WHERE phone = '+15305550123'").first?.first)
            let refused = try await admin.post(
                "/admin/people/attach?phone=5305550123&account=\(holderID)", form: [("new_phone", "4155550177")])
            #expect(refused.status == .conflict)
            // A number that cannot take it is refused before any text: the number's holder's, the old one.
            let texts = try server.outbox().count
            for taken in ["5305550123", "2125550100"] {
                let refusedNumber = try await admin.post(
                    "/admin/people/attach?phone=5305550123&account=\(detached)", form: [("new_phone", taken)])
                #expect(refusedNumber.status.code >= 400, "\(taken)")
            }
            #expect(try server.outbox().count == texts)
            // The new number, a code to it, read to the operator, with a reason; sent twice (Back
            // and send again), the code already out is the one to type.
            _ = try await admin.post(
                "/admin/people/attach?phone=5305550123&account=\(detached)", form: [("new_phone", "(415) 555-0177")])
            let sent = try await admin.post(
                "/admin/people/attach?phone=5305550123&account=\(detached)", form: [("new_phone", "(415) 555-0177")])
            let codePage = try #require(sent.location)
            #expect(codePage.hasPrefix("/admin/people/attach/code?"))
            #expect(try await admin.get(codePage).body.contains("A code went to <span class=\"nowrap\">(415) 555-0177</span>"))
            let code = try server.lastCode(to: "+14155550177")
            #expect(try await admin.post(codePage, form: [("code", code), ("reason", "")]).status == .unprocessableEntity)
            let wrong = try await admin.post(codePage, form: [("code", code == "000000" ? "111111" : "000000"), ("reason", "Old number recycled")])
            #expect(wrong.status == .unprocessableEntity)
            let moved = try await admin.post(codePage, form: [("code", code), ("reason", "Old number recycled")])
            #expect(moved.location == "/admin/people?phone=%28415%29%20555-0177&done=attach-account")
            let person = try await admin.get(try #require(moved.location))
            #expect(person.body.contains("The account is on its new number"))
            #expect(try await server.rows("SELECT CAST(id AS TEXT) FROM users WHERE phone = '+14155550177'") == [[detached]])
            let rows = try await server.rows(
                "SELECT detail, actor, reason FROM events WHERE type = 'operator.action' AND detail = 'attach_account'")
            #expect(rows == [["attach_account", "+12125550100", "Old number recycled"]])
            // The operator's own sign-in is untouched; the person signs in on the new number.
            #expect(try await admin.get("/admin").status == .ok)
            #expect(try await signIn(server, "4155550177").cookie("session") != nil)
        }
    }

    @Test("another person's passkey or app by id is refused (409), and nothing is removed")
    func anotherPersonsPasskey() async throws {
        try await withServer(Self.on) { server in
            let person = try await signIn(server, Self.person)
            _ = person
            let (admin, _) = try await openConsole(server)
            let adminsPasskey = try #require(
                try await server.rows("SELECT id FROM passkeys").first?.first)
            let refused = try await admin.post(
                "/admin/people/remove-passkey?phone=5305550123", form: [("passkey", adminsPasskey), ("reason", "not theirs")])
            #expect(refused.status == .conflict)
            #expect(try await server.tableCounts(["passkeys"])["passkeys"] == 1)
            let app = try await admin.post(
                "/admin/people/disconnect-app?phone=5305550123", form: [("client", "grafana"), ("reason", "not theirs")])
            #expect(app.status == .conflict)
        }
    }
}
