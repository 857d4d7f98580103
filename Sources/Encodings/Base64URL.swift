import Foundation

/// Base64url without padding (RFC 4648 §5): cookies, tokens, WebAuthn's JSON, JWKs. The one
/// implementation every module uses.
public enum Base64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64URLEncodedString()
    }

    /// The bytes, or nil for text that is not base64url. Padding is tolerated here, as
    /// browsers never send it but some WebAuthn libraries do; ``Foundation/Data/init(base64URLEncoded:)``
    /// refuses it, for tokens we made ourselves.
    public static func decode(_ text: String) -> [UInt8]? {
        var trimmed = Substring(text)
        while trimmed.utf8.last == UInt8(ascii: "=") { trimmed = trimmed.dropLast() }
        return Data(base64URLEncoded: String(trimmed)).map { Array($0) }
    }
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

    /// Decodes unpadded base64url; nil on malformed input (standard base64's `+`, `/` and
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
