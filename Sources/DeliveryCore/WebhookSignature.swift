import Crypto
import Encodings
import Foundation

/// How our webhook provider's requests are signed, both ways: `X-Signature-256: sha256=HEX`,
/// the HMAC-SHA256 of the exact body bytes under the shared secret
/// (`WEBAPP_SMS_WEBHOOK_SECRET`). We sign what we post to it; it signs the statuses it posts
/// back, and we check them before reading a byte of them.
public enum WebhookSignature {
    public static let header = "X-Signature-256"

    /// `sha256=` and the lowercase hex HMAC-SHA256 of `body`.
    public static func compute(body: Data, secret: SymmetricKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: secret)
        return "sha256=" + mac.hexString
    }

    /// Whether `signature` signs `body`; compared in constant time.
    public static func isValid(_ signature: String, body: Data, secret: SymmetricKey) -> Bool {
        guard signature.hasPrefix("sha256="), let mac = Data(hexString: signature.dropFirst(7)),
            mac.count == SHA256.byteCount
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: secret)
    }
}
