import AuthCore
import DeliveryCore
import Foundation
import NIOCore
import SMSProviders
import Testing

@testable import WebApp

/// A provider that fails (issue 41, part 5), end to end with a fake Twilio: the person is told
/// within seconds, nothing is counted, a call is offered where calls work, and sending pauses
/// instead of asking a dead provider once per person.
@Suite("A failing SMS provider, with a fake Twilio")
struct ProviderFailureTests: SignInSteps {
    func withTwilio(timeout: TimeAmount = .seconds(120), _ body: (TestServer, FakeTwilio) async throws -> Void)
        async throws
    {
        try await withFakeTwilio(timeout: timeout, body)
    }

    @Test(
        "texts answered 500: Login says so and offers a call; from the third failure texts pause and Twilio is not asked"
    )
    func failingTexts() async throws {
        try await withTwilio { server, twilio in
            twilio.fail("Messages", .status(.internalServerError))
            for index in 0..<3 {
                let page = try await login(Browser(baseURL: server.baseURL), "(530) 555-01\(10 + index)")
                #expect(page.status == .serviceUnavailable)
                #expect(page.body.contains("We couldn&#39;t send the text message"))
                #expect(page.body.contains(#"formaction="/login/call""#))
            }
            // Each failure was tried twice (a 5xx is tried once more).
            #expect(twilio.attempts("Messages") == 6)
            let counts = try await server.tableCounts(["verifications", "code_sends", "sessions"])
            #expect(counts == ["verifications": 0, "code_sends": 0, "sessions": 0])

            let browser = Browser(baseURL: server.baseURL)
            let paused = try await login(browser, "(530) 555-0123")
            #expect(paused.status == .serviceUnavailable)
            #expect(paused.header("Retry-After") == "30")
            #expect(paused.body.contains("Our text messages aren&#39;t going through right now"))
            #expect(twilio.attempts("Messages") == 6)

            // The call offered goes through: Verify, with the code read out.
            #expect(paused.body.contains(#"id="call-instead-button""#))
            let call = try await browser.post("/login/call", form: [("phone", "(530) 555-0123")])
            #expect(call.location == "/verify")
            #expect(twilio.sent.last?.resource == "Calls")
            let verify = try await browser.get("/verify")
            #expect(verify.status == .ok)
            #expect(verify.body.contains("We&#39;re calling (530) 555-0123 now"))

            let metrics = try await browser.get("/metrics").body
            #expect((sample(metrics, "sms_provider_pauses_total", ["channel": "sms"]) ?? 0) >= 1)
            #expect((sample(metrics, "sign_in_limit_hits_total", ["limit": "provider_paused"]) ?? 0) >= 1)

            // After the pause one text tries Twilio again; it works, and texts resume for all.
            twilio.fail("Messages", nil)
            server.clock.advance(by: 31)
            #expect(try await login(Browser(baseURL: server.baseURL), "(530) 555-0140").location == "/verify")
            #expect(try await login(Browser(baseURL: server.baseURL), "(530) 555-0141").location == "/verify")
        }
    }

    @Test("calls fail too: no call is offered once calls are paused, and the JSON API says sms_unavailable")
    func everythingDown() async throws {
        try await withTwilio { server, twilio in
            twilio.fail("Messages", .status(.serviceUnavailable))
            twilio.fail("Calls", .status(.serviceUnavailable))
            let api = APIClient(server)
            for index in 0..<3 {
                let reply = try await api.send("53055501\(10 + index)", channel: "call")
                #expect(reply.errorCode == "call_failed")
            }
            let page = try await login(Browser(baseURL: server.baseURL), "(530) 555-0123")
            #expect(page.status == .serviceUnavailable)
            #expect(!page.body.contains(#"id="call-instead-button""#))
            let reply = try await api.send("5305550199", channel: "call")
            #expect(reply.status == 503)
            #expect(reply.errorCode == "sms_unavailable")
        }
    }

    @Test("a provider that never answers: the person is told when the attempt's deadline passes, not later")
    func hangingProvider() async throws {
        try await withTwilio(timeout: .seconds(1)) { server, twilio in
            twilio.fail("Messages", .hang)
            let page = try await login(Browser(baseURL: server.baseURL), "(530) 555-0123")
            #expect(page.status == .serviceUnavailable)
            // Not tried a second time: the text may have gone out.
            #expect(twilio.attempts("Messages") == 1)
            // Ended by the deadline (1 s), while Twilio still hung (a minute).
            #expect(twilio.hangsEnded == 0)
            #expect(page.body.contains("We couldn&#39;t send the text message"))
        }
    }
}
