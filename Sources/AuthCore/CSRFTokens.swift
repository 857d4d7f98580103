import Crypto
import Foundation

/// Signed double-submit tokens against cross-site request forgery.
///
/// A token is a random nonce and an HMAC of it under a key derived from the server secret. The
/// browser keeps it in a cookie and every form repeats it; a POST is accepted only when the two
/// match and the signature is ours. Signing means an attacker who can plant a cookie (a sibling
/// subdomain) still cannot make one we accept, and nothing is stored: anonymous pages write
/// nothing to the database.
public struct CSRFTokens: Sendable {
    /// An HMAC already keyed (its pads computed once); each tag starts from a copy.
    private let keyed: HMAC<SHA256>
    private static let nonceLength = 16
    private static let tagLength = 16

    public init(secret: ServerSecret) {
        self.keyed = HMAC<SHA256>(key: secret.derivedKey(purpose: "csrf"))
    }

    /// A fresh token (43 base64url characters).
    public func issue() -> String {
        let nonce = Data(secureRandomBytes(Self.nonceLength))
        return (nonce + tag(for: nonce)).base64URLEncodedString()
    }

    /// Whether `token` is one this server issued.
    public func isValid(_ token: String) -> Bool {
        guard token.utf8.count <= 64, let data = Data(base64URLEncoded: token),
            data.count == Self.nonceLength + Self.tagLength
        else { return false }
        let nonce = data.prefix(Self.nonceLength)
        return constantTimeEquals(Data(data.suffix(Self.tagLength)), tag(for: Data(nonce)))
    }

    /// Whether the form's token is the cookie's token and ours.
    public func matches(formToken: String, cookieToken: String) -> Bool {
        constantTimeEquals(Data(formToken.utf8), Data(cookieToken.utf8)) && isValid(cookieToken)
    }

    private func tag(for nonce: Data) -> Data {
        var mac = keyed
        mac.update(data: nonce)
        return Data(mac.finalize()).prefix(Self.tagLength)
    }
}
