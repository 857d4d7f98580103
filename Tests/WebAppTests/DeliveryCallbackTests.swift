import AuthCore
import DeliveryCore
import Foundation
import NIOHTTP1
import SMSProviders
import Testing

@testable import WebApp

/// Delivery status end to end (issue 26, part 2): the app on Twilio (a fake one that speaks its
/// API and calls back signed as it does), with `--public-url` behind a proxy; what it reports,
/// and the callbacks refused.
@Suite("Delivery callbacks, with a fake Twilio")
struct DeliveryCallbackTests: TwilioSteps {
    @Test("each text asks Twilio to report to its own address; the help page says what was reported")
    func reported() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            #expect(text.resource == "Messages")
            let callback = try #require(text.field("StatusCallback"))
            #expect(callback.hasPrefix(Self.publicURL + "/callbacks/twilio/"))
            #expect(callback.count == (Self.publicURL + "/callbacks/twilio/").count + 32)

            #expect(try await browser.get("/verify/help").body.contains(">Your text is on its way.</p>"))
            // Where a provider reports, the pages keep asking (delivery.js) until the status is final.
            let verify = try await browser.get("/verify")
            #expect(verify.body.contains("/public/delivery."))
            #expect(verify.body.contains(#"<div class="delivery-problem" id="delivery-problem" hidden>"#))
            #expect(verify.body.contains(#"<form method="post" action="/verify/call" id="call-form" hidden>"#))
            let asked = try await browser.get("/verify/status")
            #expect(asked.header("Content-Type") == "application/json")
            #expect(asked.header("Cache-Control") == "no-store")
            #expect(
                try JSONSerialization.jsonObject(with: Data(asked.body.utf8)) as? NSDictionary
                    == [
                        "sentence": "Your text is on its way.", "before": "Your text is on its way.", "number": "",
                        "after": "", "final": false, "problem": false, "callInstead": false,
                    ])
            #expect(try await twilio.report(text, status: "sent") == .noContent)
            #expect(try await twilio.report(text, status: "delivered") == .noContent)
            let help = try await browser.get("/verify/help")
            #expect(
                help.body.contains(
                    #"<p id="delivery-status" class="hint delivery" aria-live="polite">Your phone received the text less than a minute ago.</p>"#
                ))
            // A delivered text is no news on Verify.
            #expect(!(try await browser.get("/verify")).body.contains("delivery-problem"))
        }
    }

    @Test("/metrics carries the health check's gauges from the start")
    func healthGauges() async throws {
        try await withTwilio { server, _ in
            let browser = Browser(baseURL: server.baseURL)
            var metrics = ""
            for _ in 0..<100 where !metrics.contains("sign_in_health_low") {
                metrics = try await browser.get("/metrics").body
                if !metrics.contains("sign_in_health_low") { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(sample(metrics, "sign_in_health_low", ["rate": "conversion"]) == 0)
            #expect(sample(metrics, "sign_in_health_low", ["rate": "delivery"]) == 0)
        }
    }

    @Test(
        "forged callbacks: unsigned, wrongly signed, signed for another address, naming another account: 403, nothing recorded"
    )
    func forged() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            let genuine = try twilio.callback(text, status: "undelivered", errorCode: "30003")
            #expect(try await twilio.post(genuine.path, fields: genuine.fields, signature: nil) == .forbidden)
            let otherToken = try twilio.callback(text, status: "undelivered", signingWith: "someone-elses-token")
            #expect(
                try await twilio.post(otherToken.path, fields: otherToken.fields, signature: otherToken.signature)
                    == .forbidden)
            // The genuine signature with one field changed.
            let changed = genuine.fields.map { $0.0 == "MessageStatus" ? ($0.0, "delivered") : $0 }
            #expect(try await twilio.post(genuine.path, fields: changed, signature: genuine.signature) == .forbidden)
            #expect(try await twilio.post(genuine.path, fields: genuine.fields, signature: "garbage") == .forbidden)
            // Signed with our token, but about another account's message (or naming none).
            for account in ["AC" + String(repeating: "f", count: 32), ""] {
                let elsewhere = try twilio.callback(text, status: "undelivered", errorCode: "30003", account: account)
                #expect(
                    try await twilio.post(elsewhere.path, fields: elsewhere.fields, signature: elsewhere.signature)
                        == .forbidden, "\(account)")
            }
            // A genuine callback replayed at another send's address.
            _ = try await browser.post("/logout")
            try await login(browser, "(530) 555-0199")
            let other = try #require(twilio.sent.last)
            let otherPath = try twilio.callback(other, status: "sent").path
            #expect(
                try await twilio.post(otherPath, fields: genuine.fields, signature: genuine.signature) == .forbidden)

            #expect(try await browser.get("/verify/help").body.contains(">Your text is on its way.</p>"))
        }
    }

    @Test("replays and late reports never move a status back; unknown sends and other ids are 404")
    func replaysAndUnknown() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            #expect(try await twilio.report(text, status: "delivered") == .noContent)
            for late in ["queued", "sent", "delivered", "undelivered", "failed"] {
                #expect(try await twilio.report(text, status: late, errorCode: "30003") == .noContent, "\(late)")
            }
            #expect(try await browser.get("/verify/help").body.contains("Your phone received the text"))
            #expect(!(try await browser.get("/verify")).body.contains("delivery-problem"))

            // A send we never made, with a perfectly good signature for its address.
            let unknown = FakeTwilio.Sent(
                resource: "Messages", sid: "SMffff",
                fields: [("StatusCallback", Self.publicURL + "/callbacks/twilio/" + SendReference.generate().hex)])
            #expect(try await twilio.report(unknown, status: "delivered") == .notFound)
            // This send's address and signature, another message's id.
            let stranger = FakeTwilio.Sent(resource: "Messages", sid: "SM0000", fields: text.fields)
            #expect(try await twilio.report(stranger, status: "failed") == .notFound)
            // Not a reference at all.
            for path in [
                "/callbacks/twilio/x", "/callbacks/twilio/" + String(repeating: "A", count: 32),
                "/callbacks/twilio/../../login", "/callbacks/webhook/" + SendReference.generate().hex,
            ] {
                #expect(try await twilio.post(path, fields: [], signature: nil) == .notFound, "\(path)")
            }
        }
    }

    @Test("a signed callback that is no status is 400; a 1 MB body is refused before it is read")
    func malformed() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            let path = try twilio.callback(text, status: "sent").path
            let url = Self.publicURL + path
            for status in [
                [("MessageSid", text.sid)], [("MessageSid", text.sid), ("MessageStatus", "exploded")],
                [("MessageSid", text.sid), ("MessageStatus", "failed"), ("ErrorCode", "<script>")],
            ] {
                let fields = [("AccountSid", twilio.accountSID)] + status
                let signature = TwilioSignature.compute(url: url, parameters: fields, authToken: twilio.authToken)
                #expect(try await twilio.post(path, fields: fields, signature: signature) == .badRequest)
            }
            let huge = [("MessageStatus", String(repeating: "a", count: 1_048_576))]
            #expect(try await twilio.post(path, fields: huge, signature: "x") == .payloadTooLarge)
            #expect(try await browser.get("/verify/help").body.contains(">Your text is on its way.</p>"))
        }
    }

    @Test("without --public-url no report is asked for, no callback address answers, and the pages do not ask")
    func withoutPublicURL() async throws {
        try await withTwilio(publicURL: nil) { server, twilio in
            let (browser, text) = try await started(server, twilio)
            #expect(text.field("StatusCallback") == nil)
            #expect(!(try await browser.get("/verify")).body.contains("/public/delivery."))
            #expect(!(try await browser.get("/verify/help")).body.contains("/public/delivery."))
            let status = try await twilio.post(
                "/callbacks/twilio/" + SendReference.generate().hex, fields: [("MessageStatus", "sent")], signature: nil
            )
            // Nothing answers there: the pages' CSRF check refuses the POST before their 404.
            #expect(status == .forbidden)
        }
    }

    @Test("the webhook provider: each send carries its status_callback; signed statuses recorded, others 403")
    func webhook() async throws {
        let fake = try await FakeTwilio.start()
        do {
            try await withServer({ configuration in
                configuration.sms = .webhook(
                    try! WebhookSender.Configuration(url: fake.baseURL + fake.webhookPath, secret: fake.webhookSecret))
                configuration.publicURL = Self.publicURL
            }) { server in
                fake.deliverTo = server.baseURL
                let (browser, text) = try await started(server, fake)
                #expect(text.field("channel") == "sms")
                #expect(text.field("status_callback")?.hasPrefix(Self.publicURL + "/callbacks/webhook/") == true)
                let ref = try #require(text.field("reference"))
                #expect(
                    try await fake.reportByWebhook(
                        text, json: #"{"reference":"\#(ref)","status":"undelivered"}"#, secret: "not-the-shared-secret")
                        == .forbidden)
                #expect(
                    try await fake.reportByWebhook(text, json: #"{"reference":"\#(ref)","status":"nonsense"}"#)
                        == .badRequest)
                // A genuine report about another send, replayed at this send's address.
                let (_, other) = try await started(server, fake, "(530) 555-0199")
                let otherRef = try #require(other.field("reference"))
                #expect(
                    try await fake.reportByWebhook(text, json: #"{"reference":"\#(otherRef)","status":"undelivered"}"#)
                        == .forbidden)
                #expect(try await browser.get("/verify/help").body.contains(">Your text is on its way.</p>"))
                #expect(
                    try await fake.reportByWebhook(
                        text, json: #"{"reference":"\#(ref)","status":"undelivered","error_code":"E42"}"#)
                        == .noContent)
                #expect(try await browser.get("/verify").body.contains("We couldn&#39;t deliver the text"))
                #expect(try await browser.post("/verify/call").location == "/verify")
                #expect(fake.sent.last?.field("channel") == "voice")
                #expect(fake.sent.last?.field("body")?.hasPrefix("Your verification code is ") == true)
            }
        } catch {
            await fake.stop()
            throw error
        }
        await fake.stop()
    }
}
