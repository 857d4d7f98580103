import AuthCore
import Crypto
import DeliveryCore
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

@testable import SMSProviders

/// Texts and calls through Twilio's REST API, against a fake Twilio: the requests, the retries
/// and the failures, and the configuration from the environment.
@Suite("Twilio")
struct TwilioTests {
    func sender(
        _ provider: FakeProvider, _ log: CapturedLog,
        // The tests of the timeout pass their own; otherwise a bound only (a 5 s one ran out
        // once with the whole suite on two busy cores), long enough that a first attempt always
        // leaves the half of it a second one needs.
        sender: TwilioSender.Configuration.Sender = .number("+15005550006"), timeout: TimeAmount = .seconds(3600),
        callbacks: String? = nil
    ) -> TwilioSender {
        TwilioSender(
            configuration: .init(
                accountSID: "AC0123", authToken: "secret-token", sender: sender, statusCallbackBase: callbacks,
                apiBase: provider.baseURL, timeout: timeout),
            logger: log.logger, retryDelay: .milliseconds(10))
    }

    func fields(_ body: String) -> [(String, String)] {
        body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding! }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    func form(_ body: String) -> [String: String] {
        Dictionary(fields(body), uniquingKeysWith: { first, _ in first })
    }

    @Test("POSTs To, From and Body as a form to Messages.json with basic auth")
    func request() async throws {
        try await withProvider { provider in
            let log = CapturedLog()
            let report = try await sender(provider, log).send(message)
            #expect(report == DeliveryReport(providerID: "SM123", status: .queued))
            let request = try #require(provider.requests.first)
            #expect(provider.requests.count == 1)
            #expect(request.method == .post)
            #expect(request.path == "/2010-04-01/Accounts/AC0123/Messages.json")
            #expect(
                request.headers[.authorization] == "Basic "
                    + Data("AC0123:secret-token".utf8).base64EncodedString())
            #expect(request.headers[.contentType] == "application/x-www-form-urlencoded")
            #expect(form(request.body) == ["To": "+15305550123", "From": "+15005550006", "Body": body])
            #expect(!log.text.contains("123456"))
            #expect(log.text.contains("SM123"))
        }
    }

    @Test("with --public-url, each text asks Twilio to report back at its own callback address")
    func statusCallback() async throws {
        try await withProvider { provider in
            try await sender(provider, CapturedLog(), callbacks: "https://login.example.com/callbacks/twilio/")
                .send(message)
            #expect(
                form(try #require(provider.requests.first).body)["StatusCallback"]
                    == "https://login.example.com/callbacks/twilio/0123456789abcdef0123456789abcdef")
        }
    }

    @Test("a call: POST Calls.json with To, From and the TwiML inline, reporting every stage of the call")
    func placesCall() async throws {
        let answer = FakeProvider.Answer(body: #"{"sid": "CA77", "status": "queued"}"#)
        try await withProvider([answer]) { provider in
            let log = CapturedLog()
            let sender = sender(provider, log, callbacks: "https://login.example.com/callbacks/twilio/")
            #expect(sender.channels == [.sms, .voice])
            #expect(try await sender.send(call) == DeliveryReport(providerID: "CA77", status: .queued))
            let request = try #require(provider.requests.first)
            #expect(request.path == "/2010-04-01/Accounts/AC0123/Calls.json")
            let sent = fields(request.body)
            #expect(form(request.body)["To"] == "+15305550123")
            #expect(form(request.body)["From"] == "+15005550006")
            let twiml = try #require(form(request.body)["Twiml"])
            #expect(twiml.hasPrefix("<?xml"))
            #expect(twiml.components(separatedBy: "<Say>1</Say>").count == 3)
            #expect(twiml.hasSuffix("<Hangup/></Response>"))
            #expect(
                sent.filter { $0.0 == "StatusCallbackEvent" }.map(\.1) == [
                    "initiated", "ringing", "answered", "completed",
                ])
            #expect(!log.text.contains("123456"))
            #expect(log.text.contains("CA77"))
        }
    }

    @Test("a Messaging Service alone places no calls: no voice channel, and a call is refused without a request")
    func noCallsWithoutNumber() async throws {
        try await withProvider { provider in
            let sender = sender(provider, CapturedLog(), sender: .messagingService("MG42"))
            #expect(sender.channels == [.sms])
            await #expect(throws: DeliveryError.self) { try await sender.send(call) }
            #expect(provider.requests.isEmpty)
        }
    }

    @Test("a Messaging Service instead of a number")
    func messagingService() async throws {
        try await withProvider { provider in
            _ = try await sender(provider, CapturedLog(), sender: .messagingService("MG42")).send(message)
            let fields = form(try #require(provider.requests.first).body)
            #expect(fields["MessagingServiceSid"] == "MG42")
            #expect(fields["From"] == nil)
        }
    }

    @Test("a 4xx is final: one request, Twilio's error logged without the code or the number")
    func clientError() async throws {
        let error =
            #"{"code": 21211, "message": "The 'To' number +15305550123 is not valid. Body: 123456 is your code", "more_info": "https://www.twilio.com/docs/errors/21211", "status": 400}"#
        try await withProvider([.init(status: .badRequest, body: error)]) { provider in
            let log = CapturedLog()
            // This message refused: nothing said of Twilio's health (no pause for anyone).
            let refused = await #expect(throws: DeliveryError.self) { try await sender(provider, log).send(message) }
            #expect(refused?.kind == .refused)
            #expect(provider.requests.count == 1)
            #expect(log.text.contains("Twilio error 21211"))
            #expect(log.text.contains("https://www.twilio.com/docs/errors/21211"))
            #expect(!log.text.contains("123456"))
            #expect(!log.text.contains("5305550123"))
        }
    }

    @Test("a 5xx is tried once more: success on the second try")
    func retryThenSuccess() async throws {
        try await withProvider([.init(status: .serviceUnavailable, body: "{}")]) { provider in
            _ = try await sender(provider, CapturedLog()).send(message)
            #expect(provider.requests.count == 2)
        }
    }

    @Test("two 5xx: failure after exactly two requests")
    func retryThenFailure() async throws {
        try await withProvider([.init(status: .internalServerError), .init(status: .badGateway)]) { provider in
            let failed = await #expect(throws: DeliveryError.self) { try await sender(provider, CapturedLog()).send(message) }
            #expect(failed?.kind == .unavailable)
            #expect(provider.requests.count == 2)
        }
    }

    @Test("429, 401 and 403 say Twilio cannot send for us now (a pause may follow), not that this message was refused",
          arguments: [HTTPResponse.Status.tooManyRequests, .unauthorized, .forbidden])
    func accountWideRefusals(_ status: HTTPResponse.Status) async throws {
        try await withProvider([.init(status: status, body: "{}")]) { provider in
            let failed = await #expect(throws: DeliveryError.self) { try await sender(provider, CapturedLog()).send(message) }
            #expect(failed?.kind == .unavailable)
            #expect(provider.requests.count == 1)
        }
    }

    @Test("a timeout fails without a second request (the text may have gone out)")
    func timeout() async throws {
        // The provider would answer (a success) after 10 s; only the 300 ms deadline makes the
        // send fail, so the failure is the outcome asserted, not how long it took.
        try await withProvider([.init(delay: .seconds(10))]) { provider in
            let failed = await #expect(throws: DeliveryError.self) {
                try await sender(provider, CapturedLog(), timeout: .milliseconds(300)).send(message)
            }
            #expect(failed?.kind == .timedOut)
            #expect(provider.requests.count == 1)
        }
    }

    @Test("a provider that cannot be reached is tried twice, then fails")
    func unreachable() async throws {
        // A port held by a bound socket that never listens: connecting is refused, and no other
        // test's server can take the port meanwhile (a port merely freed was, once, taken by a
        // server another suite started in parallel, which answered 403).
        let held = try BoundPort()
        defer { held.close() }
        let url = "http://127.0.0.1:\(held.port)"
        let log = CapturedLog()
        let sender = TwilioSender(
            configuration: .init(
                accountSID: "AC0123", authToken: "t", sender: .number("+15005550006"), apiBase: url,
                timeout: .seconds(3600)),
            logger: log.logger, retryDelay: .milliseconds(10))
        // A refused connection fails at once, well inside half the deadline: room for a second
        // try. (With 300 s, a CI run of the whole suite on two cores took 182 s to come back
        // from the first attempt, past half the deadline, and made no second.)
        await #expect(throws: DeliveryError.self) { try await sender.send(message) }
        #expect(log.text.contains("unreachable attempt=1"))
        #expect(log.text.contains("unreachable attempt=2"))
    }

    @Test("configuration from the environment names what is missing")
    func environment() throws {
        #expect(
            throws: SMSConfigurationError("Twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN in the environment.")
        ) {
            _ = try TwilioSender.Configuration(environment: [:])
        }
        #expect(
            throws: SMSConfigurationError(
                "Twilio needs TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID in the environment.")
        ) {
            _ = try TwilioSender.Configuration(environment: ["TWILIO_ACCOUNT_SID": "AC1", "TWILIO_AUTH_TOKEN": "t"])
        }
        let both = try TwilioSender.Configuration(environment: [
            "TWILIO_ACCOUNT_SID": "AC1", "TWILIO_AUTH_TOKEN": "t", "TWILIO_FROM_NUMBER": "+15005550006",
            "TWILIO_MESSAGING_SERVICE_SID": "MG1", "TWILIO_API_BASE": "http://127.0.0.1:9",
        ])
        #expect(both.sender == .messagingService("MG1"))
        #expect(both.callerID == "+15005550006")
        #expect(both.apiBase == "http://127.0.0.1:9")
        #expect(
            try TwilioSender.Configuration(environment: [
                "TWILIO_ACCOUNT_SID": "AC1", "TWILIO_AUTH_TOKEN": "t", "TWILIO_FROM_NUMBER": "+15005550006",
            ]).apiBase == "https://api.twilio.com")
    }
}
