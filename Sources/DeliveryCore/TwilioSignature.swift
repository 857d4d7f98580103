import Crypto
import Foundation

/// Twilio's `X-Twilio-Signature` on the requests it sends us (status callbacks): the base64
/// HMAC-SHA1, under the account's auth token, of the full URL Twilio was given followed by each
/// POST parameter's name and value, names in sorted order (each name once, its values sorted).
/// This is what `twilio.request_validator.RequestValidator.compute_signature` computes; the
/// tests check ours against it.
public enum TwilioSignature {
    public static let header = "X-Twilio-Signature"

    /// The signature of a request to `url` with the form `parameters`.
    public static func compute(url: String, parameters: [(String, String)], authToken: String) -> String {
        Data(HMAC<Insecure.SHA1>.authenticationCode(for: signed(url, parameters), using: key(authToken)))
            .base64EncodedString()
    }

    /// Whether `signature` (the header's value) signs this request; compared in constant time.
    public static func isValid(
        _ signature: String, url: String, parameters: [(String, String)], authToken: String
    ) -> Bool {
        guard let mac = Data(base64Encoded: signature), mac.count == Insecure.SHA1.byteCount else { return false }
        return HMAC<Insecure.SHA1>.isValidAuthenticationCode(
            mac, authenticating: signed(url, parameters), using: key(authToken))
    }

    private static func key(_ authToken: String) -> SymmetricKey { SymmetricKey(data: Data(authToken.utf8)) }

    private static func signed(_ url: String, _ parameters: [(String, String)]) -> Data {
        var values: [String: Set<String>] = [:]
        for (name, value) in parameters { values[name, default: []].insert(value) }
        var text = url
        for name in values.keys.sorted() {
            for value in values[name]!.sorted() { text += name + value }
        }
        return Data(text.utf8)
    }
}
