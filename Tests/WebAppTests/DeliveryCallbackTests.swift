import AuthCore
import DeliveryCore
import Foundation
import NIOHTTP1
import SMSProviders
import Testing

@testable import WebApp

/// Delivery status and calls end to end (issue 26, parts 2 and 3): the app on Twilio (a fake
/// one that speaks its API and calls back signed as it does), with `--public-url` behind a proxy.
@Suite("Delivery callbacks and calls, with a fake Twilio")
struct DeliveryCallbackTests: SignInSteps {
    static let publicURL = "https://login.example.com"

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

    @Test("a text reported undelivered: Verify says so and offers the call at once; the call's code signs in")
    func undeliveredThenCall() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            #expect(try await twilio.report(text, status: "undelivered", errorCode: "30003") == .noContent)

            let verify = try await browser.get("/verify")
            #expect(
                verify.body.contains(
                    #"<p class="error" id="delivery-status" role="alert">We couldn&#39;t deliver the text to <span class="nowrap">(530) 555-0123</span>.</p>"#
                ))
            #expect(verify.body.contains(#"<div class="delivery-problem" id="delivery-problem">"#))
            #expect(!verify.body.contains("/public/delivery."))  // final: nothing more to ask
            // The help page does not tell them to wait for a text that was reported lost.
            let lostHelp = try await browser.get("/verify/help").body
            #expect(!lostHelp.contains("a minute or two"))
            #expect(lostHelp.contains("cannot receive texts"))
            let asked = try JSONSerialization.jsonObject(with: Data(try await browser.get("/verify/status").body.utf8))
            #expect(
                asked as? NSDictionary
                    == [
                        "sentence": "We couldn't deliver the text to (530) 555-0123.",
                        "before": "We couldn't deliver the text to ", "number": "(530) 555-0123", "after": ".",
                        "final": true, "problem": true, "callInstead": true,
                    ])
            #expect(verify.body.contains(#"<form method="post" action="/verify/call" id="call-form">"#))
            #expect(verify.body.contains(#"<button type="submit" id="call-button" data-wait="0">"#))
            let help = try await browser.get("/verify/help")
            #expect(
                help.body.contains(
                    #"class="error delivery" aria-live="polite">We couldn&#39;t deliver the text to <span class="nowrap">(530) 555-0123</span>.</p>"#
                ))
            #expect(help.body.contains(">If it still hasn&#39;t come, ask for a new one.</p>"))

            // No cooldown after an undelivered text: the call goes out at once.
            let called = try await browser.post("/verify/call")
            #expect(called.location == "/verify")
            let call = try #require(twilio.sent.last)
            #expect(call.resource == "Calls")
            #expect(call.field("To") == "+15305550123")
            #expect(call.field("From") == "+15005550006")
            let twiml = try #require(call.field("Twiml"))
            let digits = try #require(
                twiml.firstMatch(of: /code is<\/Say><Pause length="1"\/>((?:<Say>\d<\/Say><Pause length="1"\/>){6})/))
            let code = String(digits.1).matches(of: /<Say>(\d)<\/Say>/).map { String($0.1) }.joined()
            #expect(code.count == 6)
            #expect(call.fields.filter { $0.0 == "StatusCallbackEvent" }.count == 4)
            #expect(
                try await browser.get("/verify").body.contains(
                    "We&#39;re calling (530) 555-0123 now to read you a new code. Any code we sent before no longer works."
                ))
            #expect(try await twilio.report(call, status: "ringing") == .noContent)
            #expect(
                try await browser.get("/verify/help").body.contains(
                    "You asked for a call to <span class=\"nowrap\">(530) 555-0123</span> less than a minute ago."))
            // One status, worded for a call: no "We called" beside "We are calling", and no "If it
            // still hasn't come", which reads as a text.
            let afterCall = try await browser.get("/verify/help").body
            #expect(!afterCall.contains("We called") && !afterCall.contains("still hasn"))
            #expect(afterCall.contains("If the call doesn&#39;t come, you can try again in "))
            #expect(
                try await browser.get("/verify/help").body.contains(
                    #">We are calling <span class="nowrap">(530) 555-0123</span> now.</p>"#))
            #expect(try await submitCode(browser, code).location == "/home")

            let metrics = try await browser.get("/metrics").body
            #expect(
                sample(
                    metrics, "sign_in_deliveries_total",
                    ["channel": "sms", "status": "undelivered", "error_code": "30003"])
                    == 1)
        }
    }

    @Test("a call that is not answered: Verify says so and the text is offered again at once")
    func callNotAnswered() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            _ = try await twilio.report(text, status: "failed", errorCode: "30006")
            _ = try await browser.post("/verify/call")
            let call = try #require(twilio.sent.last)
            #expect(try await twilio.report(call, status: "no-answer") == .noContent)
            let verify = try await browser.get("/verify")
            #expect(verify.body.contains(">Your phone did not answer our call.</p>"))
            #expect(!verify.body.contains(#"action="/verify/call""#))
            // Unlike a text that did not arrive, an unanswered call keeps the wait: calling (or
            // texting) again at once would ring a stranger's phone as fast as anyone can press.
            let tooSoon = try await browser.post("/verify/call")
            #expect(tooSoon.status == .tooManyRequests)
            // Worded for a call, and the call button (when shown) counts the same wait down.
            #expect(tooSoon.body.contains("before asking for a call."))
            #expect(!tooSoon.body.contains("before requesting a new code"))
            #expect(twilio.sent.last?.sid == call.sid)
            server.clock.advance(by: 30)
            #expect(try await browser.post("/verify/resend").location == "/verify")
            #expect(twilio.sent.last?.resource == "Messages")
        }
    }

    @Test("after a call the help page speaks of calls and offers to call again; a locked number is offered no call")
    func afterACallAndLocked() async throws {
        try await withTwilio(configure: { $0.policy.maxFailuresPerPhone = 2 }) { server, twilio in
            let (browser, text) = try await started(server, twilio)
            _ = try await twilio.report(text, status: "undelivered", errorCode: "30003")
            #expect(try await browser.post("/verify/call").location == "/verify")
            let help = try await browser.get("/verify/help").body
            #expect(help.contains(">Call me again</button>"))
            #expect(help.contains("lets calls from unknown numbers ring"))
            #expect(help.contains("Any code we sent before will stop working."))
            #expect(!help.contains("Ask us to call you"))  // we just did
            _ = try await twilio.report(try #require(twilio.sent.last), status: "failed")
            let twiml = try #require(twilio.sent.last?.field("Twiml"))
            let called = twiml.matches(of: /<Say>(\d)<\/Say>/).prefix(6).map { String($0.1) }.joined()
            var locked = try await submitCode(browser, anyWrongCode(for: called))
            for _ in 1...3 where locked.status != .tooManyRequests {
                locked = try await submitCode(browser, anyWrongCode(for: called))
            }
            #expect(locked.status == .tooManyRequests)
            #expect(locked.body.contains("Sign-in to it is locked until"))
            #expect(!locked.body.contains("delivery-problem"))
            #expect(!locked.body.contains("/verify/call"))
            // A reload, the help page and the status JSON say the same: no call for a locked number.
            let reloaded = try await browser.get("/verify")
            #expect(reloaded.body.contains("Sign-in to it is locked until"))
            #expect(!reloaded.body.contains("/verify/call"))
            #expect(!(try await browser.get("/verify/help").body.contains("/verify/call")))
            #expect(!(try await browser.get("/verify/status").body.contains(#""callInstead":true"#)))
        }
    }

    @Test(
        "a double tap on Call me places one call and answers both taps as the call; a later tap in the cooldown is refused"
    )
    func doubleTapCall() async throws {
        try await withTwilio { server, twilio in
            let (browser, text) = try await started(server, twilio)
            _ = try await twilio.report(text, status: "undelivered", errorCode: "30003")
            #expect(try await browser.post("/verify/call").location == "/verify")
            #expect(try await browser.post("/verify/call").location == "/verify")
            #expect(twilio.sent.filter { $0.resource == "Calls" }.count == 1)
            server.clock.advance(by: 10)
            #expect(try await browser.post("/verify/call").status == .tooManyRequests)
            #expect(twilio.sent.filter { $0.resource == "Calls" }.count == 1)
        }
    }

    @Test("calls go to US numbers only: a Puerto Rico number is offered none, and a forced one is refused")
    func usOnly() async throws {
        try await withTwilio(configure: { $0.policy.phoneRegions = try! PhoneRegions(parsing: "US,PR") }) {
            server, twilio in
            let (browser, text) = try await started(server, twilio, "(787) 234-5678")
            _ = try await twilio.report(text, status: "undelivered", errorCode: "30003")
            #expect(!(try await browser.get("/verify")).body.contains("/verify/call"))
            #expect(!(try await browser.get("/verify/help")).body.contains("/verify/call"))
            let forced = try await browser.post("/verify/call")
            #expect(forced.status == .unprocessableEntity)
            #expect(twilio.sent.allSatisfy { $0.resource == "Messages" })
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

    @Test("at most 3 calls an hour to one number, however the wait is spent; a text still goes")
    func callLimit() async throws {
        try await withTwilio { server, twilio in
            let (browser, _) = try await started(server, twilio)
            for _ in 1...3 {
                server.clock.advance(by: 30)
                #expect(try await browser.post("/verify/call").location == "/verify")
            }
            server.clock.advance(by: 30)
            let fourth = try await browser.post("/verify/call")
            #expect(fourth.status == .tooManyRequests)
            #expect(
                fourth.body.contains(
                    "We have called this number too often. You can ask for a text now, or a call in 59 minutes."))
            #expect(twilio.sent.filter { $0.resource == "Calls" }.count == 3)
            #expect(try await browser.post("/verify/resend").location == "/verify")
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

    @Test("a Messaging Service alone places no calls: no call offered, and a forged call request is refused")
    func noCalls() async throws {
        try await withTwilio(messagingServiceOnly: true) { server, twilio in
            let (browser, text) = try await started(server, twilio)
            _ = try await twilio.report(text, status: "undelivered", errorCode: "30003")
            let verify = try await browser.get("/verify")
            #expect(verify.body.contains("We couldn&#39;t deliver the text"))
            #expect(!verify.body.contains("/verify/call"))
            #expect(!(try await browser.get("/verify/help")).body.contains("/verify/call"))
            let forced = try await browser.post("/verify/call")
            #expect(forced.status == .unprocessableEntity)
            #expect(forced.body.contains("We don&#39;t place calls here. We can text you a code instead."))
            #expect(twilio.sent.allSatisfy { $0.resource == "Messages" })
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
