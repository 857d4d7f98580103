import AuthCore
import Foundation
import Testing

@testable import WebApp

/// Calls end to end (issue 26, part 3): the call offered when a text does not arrive, its code
/// read out, and the limits on calling a number, on a fake Twilio.
@Suite("Calls, with a fake Twilio")
struct CallFlowTests: TwilioSteps {
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
}
