import Foundation
import Testing

@testable import WebApp

/// The steps of the suites about getting back into an account: a sign-in by text (the steps of
/// ``ConfirmFlowTests``) and an account with its recovery codes made.
protocol RecoverySteps {}

extension RecoverySteps {
    /// Signs in by text: ``ConfirmFlowTests/signIn(_:phone:remember:)``.
    var confirm: ConfirmFlowTests { ConfirmFlowTests() }

    /// Signs `phone` in on a new browser and makes its recovery codes.
    func account(_ server: TestServer, phone: String) async throws -> (Browser, [String]) {
        let browser = try await confirm.signIn(server, phone: phone)
        let made = try await browser.post("/account/recovery")
        let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
        #expect(codes.count == 10)
        return (browser, codes)
    }
}
