import Crypto
import Encodings
import Foundation

/// Our own name for one text or call: 128 random bits, as 32 lowercase hex digits. It is the
/// last part of the send's status callback address, so a callback names its send before the
/// provider's id is known, and nobody can guess another send's address.
public struct SendReference: Sendable, Hashable, CustomStringConvertible {
    /// The 32 hex digits.
    public let hex: String

    /// A new random reference.
    public static func generate() -> SendReference {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SendReference(validHex: bytes.hexString)
    }

    /// A reference as it appears in a callback address; `nil` unless it is exactly 32
    /// lowercase hex digits (so nothing else ever reaches the database).
    public init?(_ text: Substring) {
        guard text.utf8.count == 32,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        self.hex = String(text)
    }

    private init(validHex: String) {
        self.hex = validHex
    }

    public var description: String { hex }
}
