import Crypto
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
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `signature` signs `body`; compared in constant time.
    public static func isValid(_ signature: String, body: Data, secret: SymmetricKey) -> Bool {
        guard signature.hasPrefix("sha256="), let mac = hexBytes(signature.dropFirst(7)),
            mac.count == SHA256.byteCount
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: secret)
    }

    private static func hexBytes(_ text: Substring) -> Data? {
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        guard text.utf8.count % 2 == 0, text.utf8.allSatisfy(hexDigits.contains) else { return nil }
        var bytes = Data(capacity: text.utf8.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
