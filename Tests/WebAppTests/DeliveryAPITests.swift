import Foundation
import Testing

@testable import WebApp

/// The JSON API's side of calls and delivery (issue 26, part 4), each answer checked against
/// the OpenAPI document.
@Suite("API: channel and delivery status")
struct DeliveryAPITests {
    @Test("channel call places a call; GET /verifications/{id} follows its status; its code signs in")
    func call() async throws {
        try await DeliveryCallbackTests().withTwilio { server, twilio in
            let api = APIClient(server)
            let sent = try await api.call(
                .POST, "/verifications", json: ["phone_number": "(530) 555-0123", "channel": "call"])
            #expect(sent.status == 200)
            #expect(sent.json["channel"] as? String == "call")
            let id = try #require(sent.json["verification_id"] as? String)
            let call = try #require(twilio.sent.last)
            #expect(call.resource == "Calls")

            let queued = try await api.call(.GET, "/verifications/\(id)")
            #expect(queued.status == 200)
            #expect(queued.json["status"] as? String == "queued")
            #expect(queued.json["channel"] as? String == "call")
            #expect(queued.json["phone_number"] as? String == "+15305550123")
            #expect(queued.json["resend_after"] as? Int == 30)
            #expect(queued.json["error_code"] == nil)

            #expect(try await twilio.report(call, status: "busy") == .noContent)
            let busy = try await api.call(.GET, "/verifications/\(id)")
            #expect(busy.json["status"] as? String == "undelivered")
            #expect(busy.json["resend_after"] as? Int == 30)  // an unanswered call keeps the wait

            let twiml = try #require(call.field("Twiml"))
            let code = twiml.matches(of: /<Say>(\d)<\/Say>/).prefix(6).map { String($0.1) }.joined()
            let checked = try await api.check("+15305550123", code, id: id)
            #expect(checked.status == 200)
            // The code is used: the id names nothing any more.
            #expect(try await api.call(.GET, "/verifications/\(id)").status == 404)
        }
    }

    @Test("a call asked for in a text's cooldown places nothing and says the code out is the text's")
    func callInCooldown() async throws {
        try await DeliveryCallbackTests().withTwilio { server, twilio in
            let api = APIClient(server)
            let text = try await api.call(.POST, "/verifications", json: ["phone_number": "(530) 555-0123"])
            #expect(text.json["channel"] as? String == "sms")
            let asked = try await api.call(
                .POST, "/verifications", json: ["phone_number": "(530) 555-0123", "channel": "call"])
            #expect(asked.status == 200)
            #expect(asked.json["sent"] as? Bool == false)
            #expect(asked.json["channel"] as? String == "sms")
            #expect(twilio.sent.map(\.resource) == ["Messages"])
        }
    }

    @Test("an unknown id or a bad channel is refused, and nothing is sent")
    func refusals() async throws {
        try await DeliveryCallbackTests().withTwilio { server, twilio in
            let api = APIClient(server)
            for id in ["nope", String(repeating: "A", count: 43), "%2E%2E"] {
                let unknown = try await api.call(.GET, "/verifications/\(id)")
                #expect(unknown.status == 404, "\(id)")
                #expect(unknown.errorCode == "not_found")
            }
            for channel in ["voice", "SMS", ""] {
                let bad = try await api.call(
                    .POST, "/verifications", json: ["phone_number": "(530) 555-0123", "channel": channel])
                #expect(bad.status == 400, "\(channel)")
            }
            let wrongType = try await api.call(
                .POST, "/verifications", body: #"{"phone_number": "(530) 555-0123", "channel": 2}"#)
            #expect(wrongType.status == 400)
            let null = try await api.call(
                .POST, "/verifications", body: #"{"phone_number": "(530) 555-0123", "channel": null}"#)
            #expect(null.status == 400)
            #expect(twilio.sent.isEmpty)
        }
    }

    @Test("a provider that places no calls: channel call is 422 channel_unavailable")
    func noCalls() async throws {
        try await DeliveryCallbackTests().withTwilio(messagingServiceOnly: true) { server, twilio in
            let refused = try await APIClient(server).call(
                .POST, "/verifications", json: ["phone_number": "(530) 555-0123", "channel": "call"])
            #expect(refused.status == 422)
            #expect(refused.errorCode == "channel_unavailable")
            #expect(twilio.sent.isEmpty)
        }
    }
}
