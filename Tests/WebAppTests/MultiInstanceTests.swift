import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// Two app instances on one database, as behind a load balancer that sends each request of the
/// same browser wherever it likes. On PostgreSQL (`scripts/test`'s second pass) this is the
/// deployment issue 8 is about; on SQLite the two share one file, which also holds.
@Suite("Two instances, one database")
struct MultiInstanceTests {
    /// Instance A, then B sharing its database, secret, limits and clock; both stopped after.
    func withTwoInstances(
        _ configure: @escaping (inout AppConfiguration) -> Void = { _ in },
        _ body: (TestServer, TestServer) async throws -> Void
    ) async throws {
        let a = try await TestServer.start(configure)
        let b: TestServer
        do {
            b = try await TestServer.start(sharing: a)
        } catch {
            await a.stop()
            throw error
        }
        do {
            try await body(a, b)
        } catch {
            await b.stop()
            await a.stop()
            throw error
        }
        await b.stop()
        await a.stop()
    }

    func submitCode(_ browser: Browser, _ code: String) async throws -> TestResponse {
        try await browser.post("/verify", form: code.enumerated().map { ("d\($0.offset + 1)", String($0.element)) })
    }

    @Test("a sign-in started on A completes on B; the session then works on both and ends on both")
    func signInAcrossInstances() async throws {
        try await withTwoInstances { a, b in
            let browser = Browser(baseURL: a.baseURL)
            #expect(try await browser.post("/login", form: [("phone", "(530) 555-0123")]).location == "/verify")
            let code = try a.lastCode()

            browser.baseURL = b.baseURL
            let verifyPage = try await browser.get("/verify")
            #expect(verifyPage.status == .ok)
            #expect(verifyPage.body.contains("(530) 555-0123"))
            #expect(try await submitCode(browser, code).location == "/home")

            for server in [a, b] {
                browser.baseURL = server.baseURL
                let home = try await browser.get("/home")
                #expect(home.status == .ok, "home on \(server.baseURL)")
                #expect(try await browser.get("/login").location == "/home")
            }

            // Signed out on A, the same cookie replayed on B is refused.
            let signedIn = try #require(browser.cookie("session"))
            browser.baseURL = a.baseURL
            #expect(try await browser.post("/logout").status == .seeOther)
            browser.baseURL = b.baseURL
            browser.setCookie("session", signedIn)
            #expect(try await browser.get("/home").location == "/login")
        }
    }

    @Test("'Is this your account?' asked on A is answered on B; a recovery proved on B moves the account on A; both see the same activity")
    func accountOverTheYearsAcrossInstances() async throws {
        let claims = ClaimFlowTests()
        try await withTwoInstances { a, b in
            let codes = try await claims.oldAccount(a)
            let (browser, verified) = try await claims.newHolder(a)
            #expect(verified.location == "/claim")
            browser.baseURL = b.baseURL
            #expect(try await browser.get("/claim").body.contains("Is this your account?"))
            #expect(try await browser.post("/claim/code", form: [("code", codes[0])]).location == "/home")
            #expect(try await browser.get("/home").body.contains("Savings"))
            // The owner's activity, read on either instance: asked, then proved with a code.
            for server in [a, b] {
                browser.baseURL = server.baseURL
                let activity = try await browser.get("/account/activity")
                #expect(activity.body.contains("The account was proved yours with a recovery code"))
                #expect(activity.body.contains("we asked whether this is your account"))
            }

            let phone = Browser(baseURL: b.baseURL)
            _ = try await phone.get("/recover")
            #expect(try await phone.post("/recover", form: [("phone", "4155550100"), ("code", codes[1])]).location
                == "/recover/phone?left=8")
            phone.baseURL = a.baseURL
            a.clock.advance(by: 31)
            #expect(try await phone.post("/recover/phone", form: [("phone", "5305550123")]).location == "/recover/code?sent=1")
            phone.baseURL = b.baseURL
            let moved = try await phone.post("/recover/code", form: [("code", try a.lastCode(to: "+15305550123"))])
            #expect(moved.location == "/account?changed=phone")
            // The recovery signed every other place out, on both instances.
            for server in [a, b] {
                browser.baseURL = server.baseURL
                #expect(try await browser.get("/home").location == "/login")
            }
        }
    }

    @Test("wrong codes count on every instance: five across A and B kill the code on both")
    func attemptsAcrossInstances() async throws {
        try await withTwoInstances { a, b in
            let browser = Browser(baseURL: a.baseURL)
            _ = try await browser.post("/login", form: [("phone", "(530) 555-0123")])
            let code = try a.lastCode()
            for attempt in 1...5 {
                browser.baseURL = (attempt.isMultiple(of: 2) ? b : a).baseURL
                let response = try await submitCode(browser, anyWrongCode(for: code))
                #expect(response.status == .unprocessableEntity)
                let message = attempt < 5 ? "Incorrect verification code" : "Too many incorrect codes."
                #expect(response.body.contains(message), "attempt \(attempt)")
            }
            for server in [a, b] {
                browser.baseURL = server.baseURL
                let right = try await submitCode(browser, code)
                #expect(right.body.contains("Too many incorrect codes."), "right code on \(server.baseURL)")
            }
        }
    }

    @Test("the resend cooldown and the sending limits are global")
    func limitsAcrossInstances() async throws {
        try await withTwoInstances({ $0.policy.maxCodesPerClient = 3 }) { a, b in
            // Cooldown: the code went out from A; B refuses a resend for the rest of the 30 s.
            let browser = Browser(baseURL: a.baseURL)
            _ = try await browser.post("/login", form: [("phone", "(530) 555-0123")])
            a.clock.advance(by: 10)
            browser.baseURL = b.baseURL
            let early = try await browser.post("/verify/resend")
            #expect(early.status == .tooManyRequests)
            #expect(early.header("Retry-After") == "20")
            #expect(try b.outbox().isEmpty)

            // Per client: 3 codes an hour from this address, counted on both instances (one is
            // spent above), asked for at once.
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for index in 1...4 {
                    group.addTask {
                        let api = APIClient(index.isMultiple(of: 2) ? a : b)
                        return try await api.send(String(format: "+1530555%04d", index)).status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 2)
            #expect(statuses.filter { $0 == 429 }.count == 2)
            #expect(try a.outbox().count + b.outbox().count == 3)
        }
    }

    @Test("an API token from A works on B, and signing out on B ends it on A")
    func tokensAcrossInstances() async throws {
        try await withTwoInstances { a, b in
            let token = try await APIClient(a).signIn(a)
            let me = try await APIClient(b).call(.GET, "/me", token: token)
            #expect(me.status == 200)
            #expect(me.json["phone_number"] as? String == "+15305550123")
            #expect(try await APIClient(b).call(.POST, "/logout", token: token).status == 204)
            #expect(try await APIClient(a).call(.GET, "/me", token: token).status == 401)
        }
    }
}
