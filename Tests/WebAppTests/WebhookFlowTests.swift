import EventsCore
import Foundation
import HTTPLite
import HTTPTypes
import Logging
import NIOCore
import TestSupport
import Testing

@testable import WebApp

/// Webhooks end to end: the server sends its recorded events to an endpoint on 127.0.0.1,
/// signed as Standard Webhooks does, retrying with the same id after failures.
@Suite("Webhooks, end to end")
struct WebhookFlowTests {
    static let secret = "whsec_" + Data(repeating: 42, count: 32).base64EncodedString()

    @Test("a sign-in's events reach the endpoint signed, each once it answers 2xx; failures are retried with the same id when the schedule says; a phone number only when asked")
    func delivered() async throws {
        let receiver = Receiver(script: [.internalServerError, .movedPermanently])
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let endpoint = try #require(
            try WebhookEndpoint.parse(
                Data(#"{"endpoints": [{"url": "\#(receiver.url)", "secret": "\#(Self.secret)", "events": ["session.created", "code.sent"]}]}"#.utf8)
            ).first)
        try await withServer({
            $0.webhooks = [endpoint]
            $0.webhookInterval = .milliseconds(50)
        }) { server in
            _ = try await ConfirmFlowTests().signIn(server)
            // The first attempt fails (500), the retry 5 s later is redirected (not followed):
            // both count as failures, then the third, 5 minutes on, is delivered.
            #expect(await eventually(within: .seconds(10)) { receiver.requests.count >= 1 })
            server.clock.advance(by: 6)
            #expect(await eventually(within: .seconds(10)) { receiver.requests.count >= 2 })
            server.clock.advance(by: 301)
            #expect(await eventually(within: .seconds(10)) { receiver.requests.count >= 4 })
            let requests = receiver.requests
            try #require(requests.count >= 4)
            let ids = requests.map { $0.headers[HTTPField.Name("webhook-id")!] ?? "" }
            #expect(ids[0] == ids[1] && ids[1] == ids[2], "the same id on every retry: \(ids)")
            #expect(ids[3] != ids[2])
            let secret = try #require(WebhookSecret(Self.secret))
            for request in requests {
                let id = try #require(request.headers[HTTPField.Name("webhook-id")!])
                let timestamp = try #require(request.headers[HTTPField.Name("webhook-timestamp")!].flatMap { Int($0) })
                #expect(
                    request.headers[HTTPField.Name("webhook-signature")!]
                        == secret.signature(id: id, timestamp: timestamp, body: Data(request.body.utf8)))
            }
            let types = requests.suffix(2).compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any])?["type"] as? String
            }
            #expect(types == ["code.sent", "session.created"])
            #expect(!requests.contains { $0.body.contains("+1530") }, "no phone number unless asked")
            #expect(!requests.contains { $0.path.contains("redirected") }, "no redirect followed")
        }
    }
}
