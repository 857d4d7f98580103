import AuthCore
import Crypto
import DeliveryCore
import Encodings
import Foundation
import HTTPTypes
import Testing

@testable import SMSProviders

/// Texts and calls through our signed webhook, against a fake receiver: the JSON and its
/// HMAC-SHA256 signature, the retries, and the configuration refused.
@Suite("SMS webhook")
struct WebhookTests {
    let secret = "a-shared-secret-of-some-length"

    func sender(_ provider: FakeProvider, _ log: CapturedLog = CapturedLog()) throws -> WebhookSender {
        WebhookSender(
            // A bound only, long enough that a first attempt on a loaded machine leaves its retry room.
            configuration: try .init(url: provider.baseURL + "/sms", secret: secret, timeout: .seconds(3600)),
            logger: log.logger, retryDelay: .milliseconds(10))
    }

    @Test("POSTs {to, channel, body, reference} as JSON with an HMAC-SHA256 signature of the exact body")
    func request() async throws {
        try await withProvider { provider in
            let log = CapturedLog()
            #expect(try await sender(provider, log).send(message) == DeliveryReport(providerID: nil, status: .queued))
            let request = try #require(provider.requests.first)
            #expect(request.method == .post)
            #expect(request.path == "/sms")
            #expect(request.headers[.contentType] == "application/json")
            let json = try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as! [String: String]
            #expect(
                json == [
                    "to": "+15305550123", "channel": "sms", "body": body,
                    "reference": "0123456789abcdef0123456789abcdef",
                ])
            // The receiver's check, written independently of the sender's code.
            let expected = HMAC<SHA256>.authenticationCode(
                for: Data(request.body.utf8), using: SymmetricKey(data: Data(secret.utf8)))
            let hex = Data(expected).hexString
            #expect(request.headers[HTTPField.Name("X-Signature-256")!] == "sha256=" + hex)
            #expect(!log.text.contains("123456"))
        }
    }

    @Test("a call carries channel voice and the words to say; with callbacks, its status_callback address")
    func voice() async throws {
        try await withProvider { provider in
            let sender = WebhookSender(
                // The same bound only as `sender`'s: the default 5 s failed a full suite run once.
                configuration: try .init(
                    url: provider.baseURL + "/sms", secret: secret,
                    statusCallbackBase: "https://login.example.com/callbacks/webhook/", timeout: .seconds(3600)),
                logger: CapturedLog().logger, retryDelay: .milliseconds(10))
            _ = try await sender.send(call)
            let json = try JSONSerialization.jsonObject(with: Data(try #require(provider.requests.first).body.utf8))
            #expect(
                json as? [String: String] == [
                    "to": "+15305550123", "channel": "voice",
                    "body": "Your Phone Login verification code is 1. 2. 3. 4. 5. 6. Again: 1. 2. 3. 4. 5. 6. Goodbye.",
                    "reference": "0123456789abcdef0123456789abcdef",
                    "status_callback": "https://login.example.com/callbacks/webhook/0123456789abcdef0123456789abcdef",
                ])
        }
    }

    @Test("4xx final, 5xx retried once")
    func errors() async throws {
        try await withProvider([.init(status: .unauthorized)]) { provider in
            await #expect(throws: DeliveryError.self) { try await sender(provider).send(message) }
            #expect(provider.requests.count == 1)
        }
        try await withProvider([.init(status: .badGateway)]) { provider in
            _ = try await sender(provider).send(message)
            #expect(provider.requests.count == 2)
        }
    }

    @Test("bad configuration is refused with a clear message")
    func configuration() {
        #expect(throws: SMSConfigurationError("The SMS webhook URL must be an http(s) URL, got file:///etc/passwd.")) {
            _ = try WebhookSender.Configuration(url: "file:///etc/passwd", secret: secret)
        }
        #expect(throws: SMSConfigurationError("WEBAPP_SMS_WEBHOOK_SECRET must be at least 16 characters.")) {
            _ = try WebhookSender.Configuration(url: "https://provider.example.com", secret: "short")
        }
    }
}
