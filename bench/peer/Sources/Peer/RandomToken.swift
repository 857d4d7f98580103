import Crypto
import Foundation

/// Random tokens (CSRF, form keys) from swift-crypto's generator, as unpadded base64url.
enum RandomToken {
    static func make(bytes: Int) -> String {
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: bytes * 8))
        return key.withUnsafeBytes { Data($0) }.base64URLString
    }
}

/// Session cookies hold a random token; the database holds only its SHA-256, as in Phone Login.
enum SessionKey {
    static func storageKey(of token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}

extension Data {
    /// Unpadded base64url (RFC 4648 §5).
    var base64URLString: String {
        let bytes = base64EncodedString().utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
