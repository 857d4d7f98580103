import Foundation
import Testing

@testable import EventsCore

@Suite("Webhooks, without a network")
struct WebhookTests {
    @Test("the signature is Standard Webhooks' own test vector")
    func vector() throws {
        let secret = try #require(WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(
            secret.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Data(#"{"test": 2432232314}"#.utf8))
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("a secret is whsec_ and 24 to 64 bytes in base64", arguments: [
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_!!!", "whsec_" + Data(count: 23).base64EncodedString(),
        "whsec_" + Data(count: 65).base64EncodedString(),
    ])
    func badSecret(_ text: String) {
        #expect(WebhookSecret(text) == nil)
    }

    @Test("the webhooks file: https (http only to this machine, any case), known types, known settings, a phone number only when asked")
    func file() throws {
        let secret = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()
        let endpoints = try WebhookEndpoint.parse(
            Data(
                """
                {"endpoints": [
                  {"url": "https://hooks.example.com/a", "secret": "\(secret)", "events": ["session.ended"]},
                  {"url": "HTTP://127.0.0.1:9000/b", "secret": "\(secret)", "include_phone_number": true}
                ]}
                """.utf8))
        #expect(endpoints.count == 2)
        let ended = Event(.signedOut, at: 1, user: 3, phone: "+15305550123", detail: "expired")
        #expect(endpoints[0].wants(ended) && !endpoints[0].wants(Event(.signedIn, at: 1)))
        #expect(endpoints[1].wants(Event(.codeSent, at: 1)))
        let stored = StoredEvent(id: 42, event: ended, status: nil)
        let quiet = String(decoding: WebhookMessage(stored, for: endpoints[0]).body, as: UTF8.self)
        let told = String(decoding: WebhookMessage(stored, for: endpoints[1]).body, as: UTF8.self)
        #expect(quiet == #"{"data":{"detail":"expired","event_id":42,"user_id":3},"timestamp":"1970-01-01T00:00:01.000Z","type":"session.ended"}"#)
        #expect(!quiet.contains("+1530") && told.contains(#""phone_number":"+15305550123""#))
        #expect(WebhookMessage(stored, for: endpoints[0]).id == "msg_42")
        for bad in [
            #"{"endpoints": [{"url": "http://hooks.example.com/a", "secret": "\#(secret)"}]}"#,
            #"{"endpoints": [{"url": "https://user:pw@hooks.example.com/a", "secret": "\#(secret)"}]}"#,
            #"{"endpoints": [{"url": "https://hooks.example.com/a", "secret": "nope"}]}"#,
            #"{"endpoints": [{"url": "https://hooks.example.com/a", "secret": "\#(secret)", "events": ["session.made"]}]}"#,
            #"{"endpoints": [{"url": "https://h.example/a", "secret": "\#(secret)"}, {"url": "https://h.example/a", "secret": "\#(secret)"}]}"#,
            #"[]"#,
        ] {
            #expect(throws: WebhookEndpoint.Refused.self) { _ = try WebhookEndpoint.parse(Data(bad.utf8)) }
        }
        // Each refused for what it is.
        for (bad, reason) in [
            (#"{"endpoints": [{"url": "https://h.example/a#x", "secret": "\#(secret)"}]}"#, "#fragment"),
            (#"{"endpoints": [{"url": "https://h.example/a", "secret": "\#(secret)", "events": []}]}"#, "lists none"),
            (#"{"endpoints": [{"url": "https://h.example/a", "secret": "\#(secret)", "include_phone_numbers": true}]}"#,
             "include_phone_numbers is no setting"),
            (#"{"endpoints": [], "retries": 3}"#, "one key"),
        ] {
            do {
                _ = try WebhookEndpoint.parse(Data(bad.utf8))
                Issue.record("accepted: \(bad)")
            } catch {
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
    }

    @Test("retries: 5 s, 5 min, 30 min, 2, 5, 10 and 10 hours, then the endpoint pauses")
    func schedule() {
        #expect(RetrySchedule.next(afterFailures: 1, now: 100) == 105)
        #expect(RetrySchedule.next(afterFailures: 7, now: 0) == 36_000)
        #expect(RetrySchedule.next(afterFailures: 8, now: 0) == nil)
        #expect(RetrySchedule.waits.reduce(0, +) > 86_400)
    }
}
