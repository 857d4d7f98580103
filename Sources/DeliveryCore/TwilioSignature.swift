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

    /// The URL, then each name with each of its values, names and values sorted and made
    /// distinct by their Unicode code points, as Twilio's reference (Python's `sorted` and
    /// `set` over `str`) does: Swift's `String` compares canonically equivalent text as equal
    /// ("é" as one scalar or as "e" and an accent), which would sign other bytes than Twilio did.
    private static func signed(_ url: String, _ parameters: [(String, String)]) -> Data {
        var values: [Scalars: Set<Scalars>] = [:]
        for (name, value) in parameters { values[Scalars(name), default: []].insert(Scalars(value)) }
        var text = String.UnicodeScalarView(url.unicodeScalars)
        for name in values.keys.sorted() {
            for value in values[name]!.sorted() {
                text.append(contentsOf: name.scalars)
                text.append(contentsOf: value.scalars)
            }
        }
        return Data(String(text).utf8)
    }

    /// Text compared and ordered by its code points alone.
    private struct Scalars: Hashable, Comparable {
        let scalars: [Unicode.Scalar]
        init(_ text: String) { scalars = Array(text.unicodeScalars) }
        static func < (a: Scalars, b: Scalars) -> Bool {
            a.scalars.lexicographicallyPrecedes(b.scalars) { $0.value < $1.value }
        }
    }
}
