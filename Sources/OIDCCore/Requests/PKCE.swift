import AuthCore
import Crypto
import Encodings
import Foundation

/// Proof Key for Code Exchange (RFC 7636), `S256` only: `plain` gives nothing an attacker who
/// saw the authorization request could not replay, and OAuth 2.1 drops it.
public enum PKCE {
    /// Whether `verifier` (43 to 128 characters of A-Z a-z 0-9 - . _ ~) hashes to `challenge`:
    /// base64url(SHA-256(verifier)) == challenge, compared in constant time.
    public static func verifies(_ verifier: String, challenge: String) -> Bool {
        guard (43...128).contains(verifier.count), verifier.allSatisfy(isUnreserved) else { return false }
        let hashed = Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString()
        return constantTimeEquals(Data(hashed.utf8), Data(challenge.utf8))
    }

    /// A challenge as S256 makes one: 43 characters of base64url.
    public static func isWellFormedChallenge(_ challenge: String) -> Bool {
        challenge.count == 43
            && challenge.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    static func isUnreserved(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-._~".contains(character))
    }
}
