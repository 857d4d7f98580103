import AsyncHTTPClient
import AuthCore
import Crypto
import DeliveryCore
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Any other provider: POSTs `{"to": "+15305550123", "channel": "sms", "body": "…",
/// "reference": "…", "status_callback": "https://…"}` as JSON to a URL, signed with
/// ``WebhookSignature`` (`X-Signature-256`), so the receiver can tell the request came from us.
/// For a call, `channel` is `voice` and `body` the words to say. The receiver reports the
/// delivery by POSTing `{"reference": …, "status": …}` to `status_callback`, signed the same way.
public struct WebhookSender: CodeSender {
    public static let signatureHeader = WebhookSignature.header

    public struct Configuration: Sendable {
        public var url: String
        /// The shared signing secret (from `WEBAPP_SMS_WEBHOOK_SECRET`).
        public var secret: SymmetricKey
        /// Where the receiver reports each send's status, up to the reference; `nil`: no
        /// `status_callback` is sent.
        public var statusCallbackBase: String?
        public var timeout: TimeAmount

        public init(
            url: String, secret: String, statusCallbackBase: String? = nil, timeout: TimeAmount = .seconds(5)
        ) throws(SMSConfigurationError) {
            guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil
            else { throw SMSConfigurationError("The SMS webhook URL must be an http(s) URL, got \(url).") }
            guard secret.utf8.count >= 16 else {
                throw SMSConfigurationError("WEBAPP_SMS_WEBHOOK_SECRET must be at least 16 characters.")
            }
            self.url = url
            self.secret = SymmetricKey(data: Data(secret.utf8))
            self.statusCallbackBase = statusCallbackBase
            self.timeout = timeout
        }
    }

    private let configuration: Configuration
    /// The HTTP side, with the retry rule and the logger.
    private let client: ProviderClient

    public init(
        configuration: Configuration, client: HTTPClient? = nil, logger: Logger,
        retryDelay: Duration = .milliseconds(500)
    ) {
        self.configuration = configuration
        self.client = ProviderClient(
            client: client ?? ProviderClient.http, timeout: configuration.timeout, retryDelay: retryDelay,
            logger: logger)
    }

    public func send(_ message: CodeMessage) async throws -> DeliveryReport {
        struct Payload: Encodable {
            let to: String
            let channel: String
            let body: String
            let reference: String
            let status_callback: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(
            Payload(
                to: message.to.e164, channel: message.channel.rawValue, body: message.words,
                reference: message.reference.hex,
                status_callback: configuration.statusCallbackBase.map { $0 + message.reference.hex }))
        let headers: HTTPHeaders = [
            "Content-Type": "application/json",
            Self.signatureHeader: WebhookSignature.compute(body: body, secret: configuration.secret),
        ]
        _ = try await client.post(
            url: configuration.url, headers: headers, body: ByteBuffer(bytes: body), provider: "SMS webhook",
            describe: { "HTTP \($0.status.code)" })
        client.logger.info(
            "SMS webhook accepted the message", metadata: ["to": "\(message.to.masked)", "channel": "\(message.channel)"])
        return DeliveryReport(providerID: nil, status: .queued)
    }
}
