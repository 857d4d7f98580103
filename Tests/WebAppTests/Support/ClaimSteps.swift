import Foundation
import TestSupport
import Testing

@testable import WebApp

/// The steps of the recycled-number guard's suites: an old account left quiet for 91 days
/// (with money and recovery codes, or with a passkey), and its number's new holder.
protocol ClaimSteps: RecoverySteps {}

extension ClaimSteps {
    /// More than `--dormant-after`'s 90 days by default.
    static var days91: Double { 91 * 86_400 }

    /// The account of 4155550100 with money in it and its recovery codes, then 91 days of quiet.
    func oldAccount(_ server: TestServer) async throws -> [String] {
        let (owner, codes) = try await account(server, phone: "4155550100")
        let home = try await owner.get("/home")
        let key = try #require(home.body.firstMatch(of: /name="key" value="([^"]+)"/)?.1)
        let added = try await owner.post("/accounts", form: [("name", "Savings"), ("key", String(key))])
        let page = try await owner.get(try #require(added.location))
        let depositKey = try #require(page.body.firstMatch(of: /action="\/accounts\/\d+\/deposit"[\s\S]*?name="key" value="([^"]+)"/)?.1)
        #expect(try await owner.post(added.location! + "/deposit", form: [("amount", "25.00"), ("key", String(depositKey))]).status == .seeOther)
        server.clock.advance(by: Self.days91)
        return codes
    }

    /// A code sign-in to `phone` in a new browser, up to its right code.
    func newHolder(_ server: TestServer, phone: String = "4155550100") async throws -> (Browser, TestResponse) {
        let browser = Browser(baseURL: server.baseURL)
        _ = try await browser.get("/login")
        #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
        return (browser, try await browser.post("/verify", form: [("code", try server.lastCode(to: "+1" + phone))]))
    }

    /// The account of 5305550123 with a passkey, then 91 days of quiet; the passkey.
    func accountWithPasskey(_ server: TestServer) async throws -> SoftwareAuthenticator {
        let passkeyFlow = PasskeyFlowTests()
        let owner = try await passkeyFlow.signIn(server)
        var authenticator = SoftwareAuthenticator()
        #expect(try await passkeyFlow.create(owner, &authenticator).location == "/devices")
        server.clock.advance(by: Self.days91)
        return authenticator
    }
}
