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
/// passkey, nobody else, and nobody by a text). Attacked as the issue asks: every address as a
/// stranger, a number thief, a stale proof. What an operator sees of a person and does to them
/// is ``ConsolePeopleTests``.
@Suite("The operators' console: who gets in")
struct ConsoleTests: ConsoleSteps {
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
}
