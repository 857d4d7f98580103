import Crypto
import Foundation

/// An endpoint's signing secret as Standard Webhooks writes it: `whsec_` and the key in base64
/// (24 to 64 bytes).
public struct WebhookSecret: Sendable, Equatable {
    let key: SymmetricKey

    public static func == (lhs: WebhookSecret, rhs: WebhookSecret) -> Bool {
        lhs.key.withUnsafeBytes { a in rhs.key.withUnsafeBytes { b in a.elementsEqual(b) } }
    }

    /// Nil for anything else: no prefix, not base64, a key shorter than 24 or longer than 64
    /// bytes.
    public init?(_ text: String) {
        guard text.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(text.dropFirst(6))),
            (24...64).contains(bytes.count)
        else { return nil }
        key = SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header of a message (Standard Webhooks' v1): HMAC-SHA256 over
    /// `id.timestamp.body` with the decoded key, in base64.
    public func signature(id: String, timestamp: Int, body: Data) -> String {
        var signed = Data("\(id).\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }
}
