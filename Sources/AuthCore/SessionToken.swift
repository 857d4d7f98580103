import Crypto
import Encodings
import Foundation

/// The secret a browser holds in its session cookie (or an app as a bearer token): 256 random bits.
///
/// The server stores only ``storageKey``, a SHA-256 of the token, so a leaked database cannot be
/// turned back into working cookies.
public struct SessionToken: Hashable, Sendable, CustomStringConvertible {
    /// The token as it travels: 43 characters of unpadded base64url.
    public let value: String

    /// A new random token from the system's secure random source.
    public static func generate() -> SessionToken {
        SessionToken(trusted: Data(secureRandomBytes(32)).base64URLEncodedString())
    }

    private init(trusted value: String) {
        self.value = value
    }

    /// Accepts a token read from a cookie or header; `nil` unless it has the exact shape we issue,
    /// so junk never reaches the database.
    public init?(_ value: String) {
        guard value.utf8.count == 43,
            value.utf8.allSatisfy({ byte in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        self.value = value
    }

    /// What the database keys the session by: SHA-256 of the token.
    public var storageKey: Data { Data(SHA256.hash(data: Data(value.utf8))) }

    /// The session's `sid`, as the apps it signs in to know it (OpenID Connect's ID tokens and
    /// Back-Channel Logout): 32 hex digits from the storage key, one way, so it opens nothing and
    /// is not the id "Your devices" uses.
    public static func sid(ofStorageKey key: Data) -> String {
        Data(SHA256.hash(data: Data("oidc-sid:".utf8) + key)).prefix(16).hexString
    }

    /// Never print the token itself.
    public var description: String { "SessionToken(…)" }
}

