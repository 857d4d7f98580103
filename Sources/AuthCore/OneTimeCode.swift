import Crypto
import Foundation

/// A six-digit sign-in code, as sent by SMS and typed back by the person.
///
/// The plain code exists only in memory between generation and delivery; storage keeps an
/// HMAC of it (see ``CodeHasher``), so a copy of the database does not reveal live codes.
public struct OneTimeCode: Hashable, Sendable, CustomStringConvertible {
    /// Number of digits in every code.
    public static let length = 6

    /// The digits, exactly ``length`` ASCII digits (leading zeros kept).
    public let digits: String

    /// A new code from the system's cryptographically secure generator (getrandom on Linux).
    /// Every one of the 1,000,000 codes is equally likely, `000000` included.
    public static func random() -> OneTimeCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new code from the given generator; tests pass a seeded one.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> OneTimeCode {
        let value = UInt32.random(in: 0..<1_000_000, using: &generator)
        var text = String(value)
        text = String(repeating: "0", count: length - text.count) + text
        return OneTimeCode(validated: text)
    }

    private init(validated digits: String) {
        self.digits = digits
    }

    /// Reads a code a person typed; `nil` unless it is exactly six ASCII digits.
    public init?(_ text: String) {
        guard text.utf8.count == Self.length,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        self.digits = text
    }

    /// Never print the code itself: descriptions end up in logs.
    public var description: String { "OneTimeCode(******)" }
}

/// Turns codes into the HMAC-SHA256 digests that storage keeps.
///
/// The phone number is part of the MAC input, so a digest is only good for the number it was
/// issued to, and the key is the server secret, so digests cannot be brute-forced from a copy of
/// the database alone (there are only a million codes).
public struct CodeHasher: Sendable {
    /// An HMAC already keyed (its pads computed once, as ``CSRFTokens`` does); each digest
    /// starts from a copy. Keying it per digest was 10 µs of a sign-in's two.
    private let keyed: HMAC<SHA256>

    /// A hasher under the given server secret.
    public init(secret: ServerSecret) {
        self.keyed = HMAC<SHA256>(key: secret.derivedKey(purpose: "one-time-code"))
    }

    /// The digest stored for `code` sent to `phone`.
    public func digest(of code: OneTimeCode, for phone: PhoneNumber) -> Data {
        var mac = keyed
        mac.update(data: Data(phone.e164.utf8))
        mac.update(data: Data([0]))
        mac.update(data: Data(code.digits.utf8))
        return Data(mac.finalize())
    }
}

