import Foundation
import Testing

@testable import WebApp

/// An account's history as a person reads it (issue 18): each line says when it happened.
@Suite("Account history")
struct AccountHistoryTests: SignInSteps {
    @Test("each history line is dated, in words and as a machine-readable instant")
    func dated() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            try await login(browser)
            #expect(try await browser.post("/verify", form: [("code", try server.lastCode())]).location == "/home")
            let home = try await browser.get("/home")
            let addKey = try #require(home.body.firstMatch(of: /name="key" value="([A-Za-z0-9_-]+)"/)).1
            let added = try await browser.post("/accounts", form: [("name", "Checking"), ("key", String(addKey))])
            let accountPath = try #require(added.location?.split(separator: "?").first.map(String.init))
            let account = try await browser.get(accountPath)
            let depositKey = try #require(
                account.body.firstMatch(
                    of:
                        /deposit" class="stack" id="deposit-form">\s*<input[^>]*>\s*<input type="hidden" name="key" value="([A-Za-z0-9_-]+)"/
                )
            )
            .1
            _ = try await browser.post(
                accountPath + "/deposit", form: [("amount", "12.34"), ("key", String(depositKey))])
            let page = try await browser.get(accountPath)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "d MMM yyyy, HH:mm 'UTC'"
            let now = server.clock.now
            #expect(page.body.contains(#"<td>Deposit<br><time class="muted when" datetime=""#))
            #expect(page.body.contains(">\(formatter.string(from: now))</time>"), "\(page.body)")
        }
    }
}
