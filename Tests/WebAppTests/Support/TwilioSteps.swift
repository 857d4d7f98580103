import Foundation
import Testing

@testable import WebApp

/// The steps of the suites that run the app on a fake Twilio (one that speaks its API and
/// calls back signed as it does), with `--public-url` behind a proxy.
protocol TwilioSteps: SignInSteps {}

extension TwilioSteps {
    /// The app's public address, under which Twilio is asked to report.
    static var publicURL: String { "https://login.example.com" }

    /// Runs `body` with the app sending through `twilio`, its callbacks under the public URL.
    func withTwilio(
        publicURL: String? = Self.publicURL, messagingServiceOnly: Bool = false,
        configure: (inout AppConfiguration) -> Void = { _ in },
        _ body: (TestServer, FakeTwilio) async throws -> Void
    ) async throws {
        try await withFakeTwilio(
            publicURL: publicURL, messagingServiceOnly: messagingServiceOnly, configure: configure, body)
    }

    /// A browser that asked for a code on Login, and the text Twilio was asked to send.
    func started(_ server: TestServer, _ twilio: FakeTwilio, _ phone: String = "(530) 555-0123") async throws
        -> (Browser, FakeTwilio.Sent)
    {
        let browser = Browser(baseURL: server.baseURL)
        #expect(try await login(browser, phone).location == "/verify")
        return (browser, try #require(twilio.sent.last))
    }
}
