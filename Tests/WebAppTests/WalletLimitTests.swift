import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// The wallet's limits over HTTP: how many accounts one person may hold, and stored balances
/// whose sum does not fit, which fail the one request instead of trapping the process.
@Suite("Wallet limits")
struct WalletLimitTests {
    @Test("the 101st account is 422 account_limit in the API, and Home says why on its add-account form")
    func accountLimit() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server, openingAccounts: 100)
            let refused = try await api.call(.POST, "/accounts", json: ["name": "One more"], token: token)
            #expect(refused.status == 422)
            #expect(refused.errorCode == "account_limit")
            #expect(
                refused.errorMessage
                    == "You have 100 accounts, the most one person can have. Delete one to add another.")

            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            #expect(try await browser.post("/verify", form: [("code", server.lastCode())]).location == "/home")
            let home = try await browser.get("/home")
            #expect(
                home.body.contains(
                    #"<p class="notice" id="account-limit">You have 100 accounts, the most one person can have. Delete an empty one to add another.</p>"#
                ))
            #expect(!home.body.contains(#"id="account-name""#))
            let posted = try await browser.post("/accounts", form: [("key", "add-account-0123456789")])
            #expect(posted.status == .unprocessableEntity)
            #expect(
                posted.body.contains("You have 100 accounts, the most one person can have. Delete one to add another."))
            // One deleted, the form is back.
            #expect(try await api.call(.DELETE, "/accounts/100", token: token).status == 204)
            #expect(try await browser.get("/home").body.contains(#"id="account-name""#))
        }
    }

    @Test(
        "stored balances whose total does not fit in Int64: Home and the API fail that request with 500, the server goes on"
    )
    func totalOverflow() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server, openingAccounts: 2)
            // Balances past the schema's limit, written behind the app's back with the check off.
            if server.usesPostgres {
                try await server.execute("ALTER TABLE accounts DROP CONSTRAINT accounts_balance_cents_check")
                try await server.execute("UPDATE accounts SET balance_cents = 5000000000000000000")
            } else {
                try await server.execute(
                    "PRAGMA ignore_check_constraints = ON; UPDATE accounts SET balance_cents = 5000000000000000000")
            }
            let bearer: HTTPHeaders = ["Authorization": "Bearer \(token)"]
            let list = try await api.browser.get("/api/v1/accounts", headers: bearer)
            #expect(list.status == .internalServerError)
            #expect(list.body.contains("internal_error"))

            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            #expect(try await browser.post("/verify", form: [("code", server.lastCode())]).location == "/home")
            let home = try await browser.get("/home")
            #expect(home.status == .internalServerError)
            #expect(home.body.contains("Something went wrong on our side."))
            // One account at a time still reads, a deposit into it is refused, and the server serves on.
            #expect(try await api.call(.GET, "/accounts/1", token: token).status == 200)
            let deposit = try await api.call(.POST, "/accounts/1/deposit", json: ["amount": "1"], token: token)
            #expect(deposit.errorCode == "balance_limit")
            #expect(try await browser.get("/login").status == .seeOther)
        }
    }
}
