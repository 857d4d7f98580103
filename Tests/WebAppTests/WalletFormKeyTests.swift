import Foundation
import NIOHTTP1
import Testing

@testable import WebApp
/// The wallet forms' one-time keys over HTTP: a double tap or a replay applies once, and a key
/// sent again for another request changes nothing.
@Suite("Wallet pages: one-time form keys")
struct WalletFormKeyTests: WalletPageSteps {
    @Test("a double tap or a replayed form applies once and lands on the same page")
    func replay() async throws {
        try await withServer { server in
            let browser = try await signedIn(server)
            _ = try await submit(browser, try await browser.get("/home"), "/accounts")
            let page = try await browser.get("/accounts/1")
            let key = try key(page, "/accounts/1/deposit")
            let taps = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await browser.post("/accounts/1/deposit", form: [("amount", "10"), ("key", key)]).location
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(Set(taps) == ["/accounts/1"])
            // Back and resubmit, an hour later: still once.
            server.clock.advance(by: 3600)
            #expect(
                try await browser.post("/accounts/1/deposit", form: [("amount", "10"), ("key", key)]).location
                    == "/accounts/1")
            #expect(balance(try await browser.get("/accounts/1")) == "$10.00")
            // Without a key it is refused as an expired form, never applied unguarded.
            let keyless = try await browser.post("/accounts/1/deposit", form: [("amount", "10")])
            #expect(keyless.status == .unprocessableEntity)
            #expect(balance(try await browser.get("/accounts/1")) == "$10.00")
        }
    }

    @Test("a form's key sent again for another action or with other fields is 422 with a sentence and changes nothing")
    func keyReused() async throws {
        try await withServer { server in
            let browser = try await signedIn(server)
            _ = try await submit(browser, try await browser.get("/home"), "/accounts")
            _ = try await submit(browser, try await browser.get("/home"), "/accounts")
            let key = try key(try await browser.get("/accounts/1"), "/accounts/1/deposit")
            #expect(
                try await browser.post("/accounts/1/deposit", form: [("amount", "10"), ("key", key)]).location
                    == "/accounts/1")
            for (action, fields) in [
                ("/accounts/1/withdraw", [("amount", "10")]), ("/accounts/1/deposit", [("amount", "11")]),
                ("/accounts/1/transfer", [("amount", "10"), ("to", "2")]), ("/accounts/1/rename", [("name", "Mine")]),
                ("/home/name", [("name", "Ann")]),
            ] {
                let reused = try await browser.post(action, form: fields + [("key", key)])
                #expect(reused.status == .unprocessableEntity, "\(action)")
                #expect(reused.body.contains("This form was already sent with other details, so nothing was done."))
            }
            // The same form sent again, its fields in another order, is still the first deposit.
            #expect(
                try await browser.post("/accounts/1/deposit", form: [("key", key), ("amount", "10")]).location
                    == "/accounts/1")
            let page = try await browser.get("/accounts/1")
            #expect(balance(page) == "$10.00")
            #expect(page.body.contains(#"<h1 id="account-name-heading">Account 1</h1>"#))
        }
    }
}
