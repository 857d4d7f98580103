import Crypto
import Encodings
import Foundation

/// Signed double-submit tokens against cross-site request forgery.
///
/// A token is a random nonce and the time it was issued, with an HMAC of both under a key
/// derived from the server secret. The browser keeps it in a cookie and every form repeats it;
/// a POST is accepted only when the two match, the signature is ours and the token is less than
/// ``lifetime`` old. Signing means an attacker who can plant a cookie (a sibling subdomain)
/// still cannot make one we accept, and nothing is stored: anonymous pages write nothing to the
/// database. The time in it means a token that leaked (a shared computer, a log) stops working
/// a day later, without the server remembering anything.
public struct CSRFTokens: Sendable {
    /// How long a token is accepted after it was issued: 24 hours. After that the form is
    /// refused like a forged one, and the next page sets a fresh token.
    public static let lifetime: TimeInterval = 86_400
    /// How far in the future an issue time may lie: another instance's clock may be a little ahead.
    static let clockSkew: TimeInterval = 300

    /// An HMAC already keyed (its pads computed once); each tag starts from a copy.
    private let keyed: HMAC<SHA256>
    private let clock: @Sendable () -> Date
    private static let nonceLength = 16
    private static let timeLength = 8
    private static let tagLength = 16
    private static let signedLength = nonceLength + timeLength
    /// Bytes of a token: what is signed, then the tag.
    static let tokenLength = signedLength + tagLength
    /// The longest text taken for a token (it is 54 base64url characters).
    static let maxTokenCharacters = 64

    /// - Parameter clock: the current time, for the issue time and the age; tests move it.
    public init(secret: ServerSecret, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.keyed = HMAC<SHA256>(key: secret.derivedKey(purpose: "csrf"))
        self.clock = clock
    }

    /// A fresh token (54 base64url characters): nonce, issue time (whole seconds since 1970,
    /// big-endian), tag.
    public func issue() -> String {
        let seconds = UInt64(max(0, clock().timeIntervalSince1970))
        let signed =
            Data(secureRandomBytes(Self.nonceLength))
            + Data((0..<8).reversed().map { UInt8(truncatingIfNeeded: seconds >> ($0 * 8)) })
        return (signed + tag(for: signed)).base64URLEncodedString()
    }

    /// Whether `token` is one this server issued less than ``lifetime`` ago.
    public func isValid(_ token: String) -> Bool {
        guard token.utf8.count <= Self.maxTokenCharacters, let data = Data(base64URLEncoded: token),
            data.count == Self.tokenLength
        else { return false }
        let signed = Data(data.prefix(Self.signedLength))
        guard constantTimeEquals(Data(data.suffix(Self.tagLength)), tag(for: signed)) else { return false }
        let issued = Double(signed.suffix(Self.timeLength).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        let now = clock().timeIntervalSince1970
        return issued <= now + Self.clockSkew && now - issued < Self.lifetime
    }

    /// Whether the form's token (masked, ``masked(_:)``, or as it is) is the cookie's token and ours.
    public func matches(formToken: String, cookieToken: String) -> Bool {
        guard let presented = Self.unmasked(formToken), let expected = Data(base64URLEncoded: cookieToken) else {
            return false
        }
        return constantTimeEquals(presented, expected) && isValid(cookieToken)
    }

    private func tag(for signed: Data) -> Data {
        var mac = keyed
        mac.update(data: signed)
        return Data(mac.finalize()).prefix(Self.tagLength)
    }
}
