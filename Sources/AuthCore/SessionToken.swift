import Crypto
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

    /// Never print the token itself.
    public var description: String { "SessionToken(…)" }
}

extension Data {
    /// Unpadded base64url (RFC 4648 §5), safe in cookies and URLs.
    public func base64URLEncodedString() -> String {
        // One pass over the ASCII bytes (Foundation's replacingOccurrences, three times, showed
        // up in the profile of every page).
        var bytes = Array(base64EncodedString().utf8)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "+") {
                bytes[index] = UInt8(ascii: "-")
            } else if bytes[index] == UInt8(ascii: "/") {
                bytes[index] = UInt8(ascii: "_")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes unpadded base64url; `nil` on malformed input (standard base64's `+`, `/` and
    /// padding are not base64url and are refused too).
    public init?(base64URLEncoded text: String) {
        // One pass over the bytes into standard base64 (Foundation's replacingOccurrences,
        // twice, was most of checking a CSRF cookie on every page).
        let count = text.utf8.count
        if count % 4 == 1 { return nil }
        var base64: [UInt8] = []
        base64.reserveCapacity(count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
            default: base64.append(byte)
            }
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        self.init(base64Encoded: Data(base64))
    }
}
