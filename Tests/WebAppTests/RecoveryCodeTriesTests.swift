import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// Recovery codes tried on "Lost your phone or number?" over HTTP: wrong, unknown and another
/// account's codes answered alike, guesses raced at once, and the answer taken from the
/// transaction that spent the code.
@Suite("Recovery codes tried")
struct RecoveryCodeTriesTests: RecoverySteps {
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
