import Crypto
import Foundation

/// Recovery codes (login.gov's personal key, GitHub's recovery codes): ten single-use codes for
/// getting back in when the phone or the number is gone. Each is 10 characters of Crockford's
/// base32 (50 random bits), written `xxxx-xxxx-xx` for reading aloud or copying by hand; only a
/// keyed digest of each is kept, and a new set ends the old one.
public struct RecoveryCodes: Sendable {
    /// How many a set holds.
    public static let count = 10
    /// Crockford's base32: no I, L, O or U, so a code read from paper is not mistyped.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Keys the digests (derived from the server secret): a copy of the table alone lets nobody
    /// test guesses at the codes.
    let key: SymmetricKey

    public init(key: SymmetricKey) {
        self.key = key
    }

    /// A new set: the codes to show once, and the digests to keep.
    public func generate(using random: (Int) -> [UInt8]) -> (codes: [String], digests: [Data]) {
        let codes = (0..<Self.count).map { _ in Self.code(from: random(7)) }
        return (codes, codes.map { digest(of: $0)! })
    }

    /// 50 bits of `bytes` (7 bytes, the last 6 bits unused) as `xxxx-xxxx-xx`.
    static func code(from bytes: [UInt8]) -> String {
        var value: UInt64 = 0
        for byte in bytes.prefix(7) { value = value << 8 | UInt64(byte) }
        value >>= 6
        var characters: [Character] = []
        for _ in 0..<10 {
            characters.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        let text = String(characters.reversed())
        return "\(text.prefix(4))-\(text.dropFirst(4).prefix(4))-\(text.suffix(2))"
    }

    /// What a typed code is, as kept: spaces and dashes dropped, lower case raised, and the
    /// letters people confuse read as Crockford does (O as 0, I and L as 1); nil when it cannot
    /// be a code (not 10 characters of the alphabet), so a slip costs no try.
    public func digest(of typed: String) -> Data? {
        var normalized = ""
        for character in typed.uppercased() where character != "-" && !character.isWhitespace {
            switch character {
            case "O": normalized.append("0")
            case "I", "L": normalized.append("1")
            default: normalized.append(character)
            }
            if normalized.count > 10 { return nil }
        }
        guard normalized.count == 10, normalized.allSatisfy(Self.alphabet.contains) else { return nil }
        return Data(HMAC<SHA256>.authenticationCode(for: Data(normalized.utf8), using: key))
    }
}
