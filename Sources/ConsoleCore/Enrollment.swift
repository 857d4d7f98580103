import Crypto
import Encodings
import Foundation

/// An operator's enrollment link (`webapp admin enroll`): how an operator adds a passkey that
/// opens the console without a passkey already (a text never could). The shell vouches for it;
/// it works once, for that operator's number, for ``lifetime``. Only the token's SHA-256 is kept.
public enum Enrollment {
    public static let lifetime: TimeInterval = 900

    /// A new token (32 random bytes, base64url) and what is kept of it.
    public static func newToken() -> (token: String, sha256: Data) {
        let token = Data(secureRandomBytes(32)).base64URLEncodedString()
        return (token, Data(SHA256.hash(data: Data(token.utf8))))
    }

    /// What is kept of `token`, if it looks like one of ours (43 base64url characters).
    public static func sha256(of token: String?) -> Data? {
        guard let token, token.utf8.count == 43,
            token.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        return Data(SHA256.hash(data: Data(token.utf8)))
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
