import Foundation
import Testing

@testable import WebApp

/// The steps of the wallet page suites: a browser signed in, and a form found on a page and
/// posted with its one-time key.
protocol WalletPageSteps {}

extension WalletPageSteps {
    /// A browser signed in as `phone`.
    func signedIn(_ server: TestServer, _ phone: String = "+15305550123") async throws -> Browser {
        let browser = Browser(baseURL: server.baseURL)
        _ = try await browser.post("/login", form: [("phone", phone)])
        let code = try server.lastCode(to: phone)
        #expect(try await browser.post("/verify", form: [("code", code)]).location == "/home")
        return browser
    }

    /// The one-time key of the form posting to `action` on the page.
    func key(_ page: TestResponse, _ action: String) throws -> String {
        let pattern =
            #"action=""# + NSRegularExpression.escapedPattern(for: action)
            + #""[^>]*>\s*<input type="hidden" name="csrf" value="[^"]*">\s*<input type="hidden" name="key" value="([A-Za-z0-9_-]+)""#
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(page.body.startIndex..., in: page.body)
        guard let match = regex.firstMatch(in: page.body, range: range),
            let key = Range(match.range(at: 1), in: page.body)
        else { throw TestFailure("no form posting to \(action)") }
        return String(page.body[key])
    }

    /// Posts the form at `action` found on `page`, with its key and `fields`.
    func submit(_ browser: Browser, _ page: TestResponse, _ action: String, _ fields: [(String, String)] = [])
        async throws -> TestResponse
    {
        try await browser.post(action, form: fields + [("key", try key(page, action))])
    }

    /// The balance an account's page shows.
    func balance(_ page: TestResponse) -> String? {
        page.body.firstMatch(of: /<strong id="balance">([^<]*)<\/strong>/).map { String($0.1) }
    }
}
