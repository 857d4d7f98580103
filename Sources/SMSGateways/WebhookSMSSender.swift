import AsyncHTTPClient
import AuthCore
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Any other gateway: POSTs `{"to": "+15305550123", "body": "…"}` as JSON to a URL, signed
/// with `X-Signature-256: sha256=HEX`, the HMAC-SHA256 of the exact body bytes under a shared
/// secret, so the receiver can tell the request came from us (compare in constant time).
public struct WebhookSMSSender: SMSSender {
    public static let signatureHeader = "X-Signature-256"

    public struct Configuration: Sendable {
        public var url: String
        /// The shared signing secret (from `WEBAPP_SMS_WEBHOOK_SECRET`).
        public var secret: SymmetricKey
        public var timeout: TimeAmount

        public init(url: String, secret: String, timeout: TimeAmount = .seconds(10)) throws(SMSConfigurationError) {
            guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil
            else { throw SMSConfigurationError("The SMS webhook URL must be an http(s) URL, got \(url).") }
            guard secret.utf8.count >= 16 else {
                throw SMSConfigurationError("WEBAPP_SMS_WEBHOOK_SECRET must be at least 16 characters.")
            }
            self.url = url
            self.secret = SymmetricKey(data: Data(secret.utf8))
            self.timeout = timeout
        }
    }

    private let configuration: Configuration
    /// The HTTP side, with the retry rule and the logger.
    private let gateway: GatewayClient

    public init(
        configuration: Configuration, client: HTTPClient = .shared, logger: Logger,
        retryDelay: Duration = .milliseconds(500)
    ) {
        self.configuration = configuration
        self.gateway = GatewayClient(
            client: client, timeout: configuration.timeout, retryDelay: retryDelay, logger: logger)
    }

    public func send(_ message: SMSMessage) async throws {
        struct Payload: Encodable {
            let to: String
            let body: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = try encoder.encode(Payload(to: message.to.e164, body: message.body))
        let headers: HTTPHeaders = [
            "Content-Type": "application/json",
            Self.signatureHeader: Self.signature(of: body, secret: configuration.secret),
        ]
        _ = try await gateway.post(
            url: configuration.url, headers: headers, body: ByteBuffer(bytes: body), gateway: "SMS webhook",
            describe: { "HTTP \($0.status.code)" })
        gateway.logger.info("SMS webhook accepted the message", metadata: ["to": "\(message.to.masked)"])
    }

    /// `sha256=` and the lowercase hex HMAC-SHA256 of `body`.
    public static func signature(of body: Data, secret: SymmetricKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: secret)
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}
